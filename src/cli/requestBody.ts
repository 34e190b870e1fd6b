import type { IncomingMessage } from 'node:http'

export type RequestBody =
  | { kind: 'text'; text: string }
  /** Past the limit: reading stopped there, nothing more was kept. */
  | { kind: 'tooLarge' }
  /** The client went away before sending all of it. */
  | { kind: 'aborted' }

/**
 * Reads a request body as UTF-8 text, up to `limit` bytes. A declared Content-Length over the
 * limit is refused before reading anything; a chunked body is refused as soon as it passes the
 * limit, so a client streaming gigabytes costs at most `limit` bytes of memory.
 */
export function readRequestBody(request: IncomingMessage, limit: number): Promise<RequestBody> {
  const declared = Number(request.headers['content-length'])
  if (declared > limit) return Promise.resolve({ kind: 'tooLarge' })

  return new Promise((resolve) => {
    const chunks: Buffer[] = []
    let size = 0
    const finish = (body: RequestBody) => {
      request.off('data', onData)
      request.off('end', onEnd)
      request.off('error', onAborted)
      request.off('close', onAborted)
      resolve(body)
    }
    const onData = (chunk: Buffer) => {
      size += chunk.length
      if (size > limit) {
        request.pause()
        finish({ kind: 'tooLarge' })
        return
      }
      chunks.push(chunk)
    }
    const onEnd = () => finish({ kind: 'text', text: Buffer.concat(chunks, size).toString('utf8') })
    const onAborted = () => finish({ kind: 'aborted' })
    request.on('data', onData)
    request.on('end', onEnd)
    request.on('error', onAborted)
    request.on('close', onAborted)
  })
}
