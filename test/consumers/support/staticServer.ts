/**
 * A plain static file server on loopback, as a site without a dev server is hosted: files as
 * they are, with the content types browsers need (module scripts must be JavaScript).
 */
import { createReadStream } from 'node:fs'
import { stat } from 'node:fs/promises'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { extname, join, normalize } from 'node:path'

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css',
  '.json': 'application/json',
  '.wasm': 'application/wasm',
}

/** What a misconfigured server answers for a path instead of its file. */
export interface Misanswer {
  status: number
  type: string
  body: string
}

/** `misanswer`: paths answered otherwise than with their file (a 404, a fallback page). */
export async function serveStatic(root: string, misanswer: (path: string) => Misanswer | undefined = () => undefined): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer(async (request, response) => {
    const path = decodeURIComponent(new URL(request.url ?? '/', 'http://x').pathname)
    let file = normalize(join(root, path))
    if (!file.startsWith(root)) return response.writeHead(403).end()
    const instead = misanswer(path)
    if (instead) return response.writeHead(instead.status, { 'content-type': instead.type }).end(instead.body)
    try {
      if ((await stat(file)).isDirectory()) file = join(file, 'index.html')
      await stat(file)
    } catch {
      return response.writeHead(404, { 'content-type': 'text/plain' }).end('not found')
    }
    response.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream', 'cache-control': 'no-cache' })
    createReadStream(file).pipe(response)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  }
}
