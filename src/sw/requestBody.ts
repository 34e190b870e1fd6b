/**
 * The service worker's adapter for reading a request body (bridge/httpRules.ts BodyReader, shared
 * with the CLI's server): a declared Content-Length over the limit is refused before reading; a
 * streamed body is cancelled as soon as it passes the limit, so an oversized body never sits whole
 * in the service worker's memory nor crosses the channel.
 */
import { BodyReader } from '../bridge/httpRules.ts'

/** The body as text, or undefined when it is over `limit` bytes. */
export async function readBodyText(request: Request, limit: number): Promise<string | undefined> {
  const body = new BodyReader(limit)
  if (body.refusesDeclared(request.headers.get('content-length'))) return undefined
  if (!request.body) return body.add(new Uint8Array(await request.arrayBuffer())) ? body.text() : undefined
  const reader = request.body.getReader()
  for (;;) {
    const { done, value } = await reader.read()
    if (done) return body.text()
    if (!body.add(value)) {
      await reader.cancel().catch(() => {})
      return undefined
    }
  }
}
