/**
 * Reads a request body as text, up to `limit` bytes. A declared Content-Length over the limit is
 * refused before reading; a streamed body is cancelled as soon as it passes the limit, so an
 * oversized body never sits whole in the service worker's memory nor crosses the channel.
 */
export async function readBodyText(request: Request, limit: number): Promise<string | undefined> {
  if (Number(request.headers.get('content-length')) > limit) return undefined
  if (!request.body) {
    const text = await request.text()
    return new TextEncoder().encode(text).length > limit ? undefined : text
  }
  const reader = request.body.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    size += value.byteLength
    if (size > limit) {
      await reader.cancel().catch(() => {})
      return undefined
    }
    chunks.push(value)
  }
  const bytes = new Uint8Array(size)
  let offset = 0
  for (const chunk of chunks) {
    bytes.set(chunk, offset)
    offset += chunk.byteLength
  }
  return new TextDecoder().decode(bytes)
}
