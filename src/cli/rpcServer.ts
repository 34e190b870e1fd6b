import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Duplex } from 'node:stream'
import type { Pagenode } from '../core/index.ts'
import { endpointPath, HttpErrorCode, route, rpcAnswer, rpcError, tooLarge, type HttpAnswer } from '../bridge/httpRules.ts'
import { refusal, withCors, type AccessPolicy } from './accessPolicy.ts'
import { readRequestBody } from './requestBody.ts'
import { headerOf } from './requestHeader.ts'
import type { RequestRecord } from './requestLog.ts'
import { RpcWebSocketServer } from './webSocketServer.ts'

export interface RpcServerOptions {
  maxRequestBytes: number
  /** Which hosts and origins may call (accessPolicy.ts). */
  access: AccessPolicy
  /** Told about every request once it is answered (the --verbose log). */
  onRequest?: (record: RequestRecord) => void
  /** How often WebSocket connections are pinged (default 30 s); one that missed the last ping is dropped. */
  keepaliveMs?: number
}

/**
 * The node over HTTP (docs/cli.md, "Over HTTP"): `POST /` and `POST /<method>`, every JSON-RPC
 * answer HTTP 200 `application/json` (errors included), `OPTIONS` preflights answered, other verbs
 * 405. The rules are the service worker's too (bridge/httpRules.ts); this is their adapter to
 * Node's http server, with the CLI's own access policy in front (accessPolicy.ts): only this
 * machine's hosts, allowed origins and JSON bodies, and CORS for allowed origins only.
 *
 * WebSocket upgrades on the same port go to webSocketServer.ts, past the same access policy.
 *
 * The port is bound before the node exists (a port in use fails fast, before a state file is
 * touched); requests that arrive before `attach` wait for the node.
 */
export class RpcServer {
  readonly http: Server
  private node: Promise<Pagenode>
  private attachNode!: (node: Pagenode) => void
  private closing = false
  private readonly webSocket: RpcWebSocketServer

  constructor(private readonly options: RpcServerOptions) {
    this.node = new Promise((resolve) => (this.attachNode = resolve))
    this.http = createServer((request, response) => this.serveSafely(request, response, false))
    this.webSocket = new RpcWebSocketServer(this.node, {
      maxRequestBytes: options.maxRequestBytes,
      access: options.access,
      keepaliveMs: options.keepaliveMs ?? 30_000,
      onRequest: options.onRequest,
    })
    this.http.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
      if (this.closing) socket.destroy()
      else this.webSocket.upgrade(request, socket, head)
    })
    // `Expect: 100-continue`: a body over the limit is refused before the client sends it.
    this.http.on('checkContinue', (request: IncomingMessage, response: ServerResponse) => {
      const withheld = Number(request.headers['content-length']) > options.maxRequestBytes
      if (!withheld) response.writeContinue()
      this.serveSafely(request, response, withheld)
    })
  }

  private serveSafely(request: IncomingMessage, response: ServerResponse, bodyWithheld: boolean): void {
    this.serve(request, response, bodyWithheld).catch((error: unknown) => {
      // Only a bug gets here; still answer in JSON-RPC terms rather than leave the client hanging.
      if (!response.headersSent) {
        const header = headerOf(request)
        send(response, withCors(rpcError(HttpErrorCode.internal, error instanceof Error ? error.message : String(error), header), header, this.options.access))
      } else response.destroy()
    })
  }

  /** Binds the port; rejects with the listen error (EADDRINUSE, EACCES, …). */
  listen(host: string, port: number): Promise<AddressInfo> {
    return new Promise((resolve, reject) => {
      const onError = (error: Error) => reject(error)
      this.http.once('error', onError)
      this.http.listen({ host, port }, () => {
        this.http.off('error', onError)
        resolve(this.http.address() as AddressInfo)
      })
    })
  }

  attach(node: Pagenode): void {
    this.attachNode(node)
  }

  /**
   * Stops accepting connections and waits for the requests in flight (a transaction being mined
   * is answered, not cut off). Connections still open after `graceMs` are dropped.
   */
  async close(graceMs = 5000): Promise<void> {
    this.closing = true
    this.webSocket.close()
    const closed = new Promise<void>((resolve) => this.http.close(() => resolve()))
    // Keep-alive connections with nothing in flight would otherwise hold the server open.
    this.http.closeIdleConnections()
    const timer = setTimeout(() => this.http.closeAllConnections(), graceMs)
    await closed
    clearTimeout(timer)
  }

  private async serve(request: IncomingMessage, response: ServerResponse, bodyWithheld: boolean): Promise<void> {
    const started = performance.now()
    const path = (request.url ?? '/').split('?')[0]
    const record = (fields: Partial<RequestRecord>) =>
      this.options.onRequest?.({
        verb: request.method ?? '?',
        path,
        status: response.statusCode,
        ms: performance.now() - started,
        ...fields,
      })

    // Once shutting down, a kept-alive connection is closed after its current answer.
    if (this.closing) response.setHeader('Connection', 'close')

    const header = headerOf(request)
    const answer = (reply: HttpAnswer) => send(response, withCors(reply, header, this.options.access))
    const refused = refusal(request.method ?? '', header, this.options.access)
    if (refused) {
      // Whatever the body holds is read and dropped (never kept): the connection stays usable.
      if (bodyWithheld) response.setHeader('Connection', 'close')
      else request.resume()
      send(response, refused)
      return record({ note: 'refused by the access policy', response: refused.body })
    }
    const routed = route({ verb: request.method ?? '', path, endpoint: endpointPath(path), header }, '')
    if (routed.kind === 'answer') {
      answer(routed.answer)
      return record({})
    }
    const { pathMethod } = routed

    const body = await readRequestBody(request, this.options.maxRequestBytes)
    if (body.kind === 'aborted') return
    if (body.kind === 'tooLarge') {
      const refusedForSize = tooLarge(this.options.maxRequestBytes, header)
      refuseRestOfBody(request, response, bodyWithheld)
      answer(refusedForSize)
      return record({ pathMethod, response: refusedForSize.body, note: 'request too large' })
    }

    const node = await this.node
    const reply = await node.handleText(body.text, pathMethod)
    // A notification (or a batch of them) has nothing to answer: 200 with an empty body, as geth.
    answer(rpcAnswer(reply ?? null, header))
    record({ pathMethod, request: body.text, response: reply })
  }
}

/** How long a client refused for size may take to read the answer and hang up. */
const LINGER_MS = 5000

/**
 * After answering an oversized request, without reading any more of it. When the client held
 * its body back (`Expect: 100-continue`, as curl does for large bodies), nothing more comes and
 * the connection simply closes. Otherwise the client is still writing, and closing a socket
 * with unread bytes resets it: the client's pending answer is thrown away with the connection.
 * So only our side is closed once the answer is out; the unread rest stays in the kernel's
 * buffers (never read into memory, and the client's writes stall once those are full) until
 * the client, having read the answer, hangs up, or `LINGER_MS` passes.
 */
function refuseRestOfBody(request: IncomingMessage, response: ServerResponse, bodyWithheld: boolean): void {
  if (bodyWithheld) {
    response.setHeader('Connection', 'close')
    return
  }
  const socket = request.socket
  response.once('finish', () => {
    socket.end()
    const timer = setTimeout(() => socket.destroy(), LINGER_MS)
    timer.unref()
    socket.once('close', () => clearTimeout(timer))
  })
}

function send(response: ServerResponse, { status, headers, body }: HttpAnswer): void {
  // A 204 (the preflight) has no body, nor a length.
  response.writeHead(status, status === 204 ? headers : { ...headers, 'Content-Length': Buffer.byteLength(body) })
  response.end(body)
}
