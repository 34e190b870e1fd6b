/**
 * The CLI server's adapter for reading a request body (bridge/httpRules.ts BodyReader, shared with
 * the service worker): a declared Content-Length over the limit is refused before reading anything;
 * a chunked body is refused as soon as it passes the limit, so a client streaming gigabytes costs
 * at most `limit` bytes of memory.
 */
import type { IncomingMessage } from 'node:http'
import { BodyReader } from '../bridge/httpRules.ts'

export type RequestBody =
  | { kind: 'text'; text: string }
  /** Past the limit: reading stopped there, nothing more was kept. */
  | { kind: 'tooLarge' }
  /** The client went away before sending all of it. */
  | { kind: 'aborted' }

/** Reads a request body as UTF-8 text, up to `limit` bytes. */
export function readRequestBody(request: IncomingMessage, limit: number): Promise<RequestBody> {
  const body = new BodyReader(limit)
  if (body.refusesDeclared(request.headers['content-length'])) return Promise.resolve({ kind: 'tooLarge' })

  return new Promise((resolve) => {
    const finish = (result: RequestBody) => {
      request.off('data', onData)
      request.off('end', onEnd)
      request.off('error', onAborted)
      request.off('close', onAborted)
      resolve(result)
    }
    const onData = (chunk: Buffer) => {
      if (body.add(chunk)) return
      request.pause()
      finish({ kind: 'tooLarge' })
    }
    const onEnd = () => finish({ kind: 'text', text: body.text() })
    const onAborted = () => finish({ kind: 'aborted' })
    request.on('data', onData)
    request.on('end', onEnd)
    request.on('error', onAborted)
    request.on('close', onAborted)
  })
}
