import type { IncomingMessage } from 'node:http'
import type { Duplex } from 'node:stream'
import { WebSocketServer, type RawData, type WebSocket } from 'ws'
import type { Pagenode, PagenodeSession, SubscriptionNotification } from '../core/index.ts'
import { endpointPath, HttpErrorCode, rpcError, type HttpAnswer } from '../bridge/httpRules.ts'
import { refusal, type AccessPolicy } from './accessPolicy.ts'
import { headerOf } from './requestHeader.ts'
import type { RequestRecord } from './requestLog.ts'

export interface WebSocketOptions {
  maxRequestBytes: number
  access: AccessPolicy
  /** How often each connection is pinged; one that has not answered the last ping by then is dropped. */
  keepaliveMs: number
  onRequest?: (record: RequestRecord) => void
}

/**
 * JSON-RPC over WebSocket on the HTTP server's port (docs/cli.md, "Over WebSocket"), as anvil,
 * Hardhat and geth serve it: each text (or binary) message is a request or a batch, answered on
 * the same connection, with eth_subscribe's notifications pushed in between. Each connection is a
 * node session (its own subscriptions, ended when it closes, however it closes).
 *
 * A WebSocket handshake is a GET that browsers send without CORS: any page may open one to any
 * server, and only the server can refuse it. So the upgrade goes through the HTTP server's access
 * policy first (Host for DNS rebinding, Origin for pages), and a refused one never becomes a
 * socket.
 */
export class RpcWebSocketServer {
  private readonly server: WebSocketServer
  private readonly alive = new WeakSet<WebSocket>()
  private readonly keepalive: ReturnType<typeof setInterval>

  constructor(
    private readonly node: Promise<Pagenode>,
    private readonly options: WebSocketOptions,
  ) {
    // A message over the limit closes the connection (1009), as geth's read limit does: the
    // socket cannot answer a message it refused to read.
    this.server = new WebSocketServer({ noServer: true, maxPayload: options.maxRequestBytes })
    this.server.on('connection', (socket: WebSocket) => this.serve(socket))
    this.keepalive = setInterval(() => this.ping(), options.keepaliveMs)
    this.keepalive.unref()
  }

  /** The HTTP server's `upgrade` event: refused by the policy, or on another path, or a socket. */
  upgrade(request: IncomingMessage, socket: Duplex, head: Buffer): void {
    const header = headerOf(request)
    const path = (request.url ?? '/').split('?')[0]
    const refused =
      refusal(request.method ?? 'GET', header, this.options.access) ??
      (endpointPath(path).kind === 'root'
        ? undefined
        : rpcError(HttpErrorCode.invalidRequest, `nothing is served at ${path} over WebSocket: connect to ws://<host>:<port>/`, () => undefined, 404))
    if (refused) {
      refuse(socket, refused)
      this.options.onRequest?.({ verb: 'WS', path, status: refused.status, ms: 0, note: 'upgrade refused', response: refused.body })
      return
    }
    this.server.handleUpgrade(request, socket, head, (ws) => this.server.emit('connection', ws, request))
  }

  /** Closes every connection (1001, going away) and stops pinging. */
  close(): void {
    clearInterval(this.keepalive)
    for (const socket of this.server.clients) socket.close(1001, 'pagenode is shutting down')
    this.server.close()
  }

  /** Drops what did not answer the last ping (a vanished peer), pings the rest. */
  private ping(): void {
    for (const socket of this.server.clients) {
      if (socket.readyState !== socket.OPEN) continue // closing: ws ends it itself
      if (!this.alive.has(socket)) {
        socket.terminate()
        continue
      }
      this.alive.delete(socket)
      socket.ping()
    }
  }

  private serve(socket: WebSocket): void {
    this.alive.add(socket)
    socket.on('pong', () => this.alive.add(socket))
    const connection = new Connection(socket, this.options.onRequest)
    const opened = this.node.then((node) => {
      if (connection.closed) return undefined
      return node.openSession((message) => connection.notify(message))
    })
    socket.on('message', (data: RawData) => {
      void opened.then((session) => session && connection.handle(session, text(data)))
    })
    socket.on('close', () => {
      connection.closed = true
      // A client that goes away mid-stream leaves nothing subscribed behind it.
      void opened.then((session) => session?.close())
    })
    // A protocol error (a message over the limit, a bad frame): ws sends the close frame that
    // says why (1009, 1002) and closes the socket itself; listening keeps it from being thrown.
    socket.on('error', () => {})
  }
}

/**
 * One client's socket. A subscription's first notification may come before the answer that
 * names its id has gone out (a block mined meanwhile); clients drop notifications for ids they
 * do not know yet, so notifications wait while an eth_subscribe is being answered, as geth holds
 * them until its answer is written.
 */
class Connection {
  closed = false
  private subscribing = 0
  private held: string[] = []

  constructor(
    private readonly socket: WebSocket,
    private readonly onRequest: WebSocketOptions['onRequest'],
  ) {}

  async handle(session: PagenodeSession, request: string): Promise<void> {
    const started = performance.now()
    // A cheap over-approximation: holding notifications a moment longer than needed is harmless.
    const subscribes = request.includes('eth_subscribe')
    if (subscribes) this.subscribing++
    let reply: string | undefined
    try {
      reply = await session.handleText(request)
    } finally {
      if (reply !== undefined) this.send(reply)
      if (subscribes && --this.subscribing === 0) this.release()
    }
    this.onRequest?.({ verb: 'WS', path: '/', status: 101, ms: performance.now() - started, request, response: reply })
  }

  notify({ data }: SubscriptionNotification): void {
    const message = JSON.stringify({ jsonrpc: '2.0', method: 'eth_subscription', params: data })
    if (this.subscribing > 0) this.held.push(message)
    else this.send(message)
  }

  private release(): void {
    const held = this.held
    this.held = []
    for (const message of held) this.send(message)
  }

  private send(message: string): void {
    if (!this.closed && this.socket.readyState === this.socket.OPEN) this.socket.send(message)
  }
}

function text(data: RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8')
  return Buffer.from(data as ArrayBuffer).toString('utf8')
}

/** Answers a refused upgrade in plain HTTP (with the JSON-RPC error as the body) and hangs up. */
function refuse(socket: Duplex, { status, headers, body }: HttpAnswer): void {
  const reason = status === 403 ? 'Forbidden' : status === 404 ? 'Not Found' : 'Bad Request'
  const lines = Object.entries({ ...headers, 'Content-Length': String(Buffer.byteLength(body)), Connection: 'close' }).map(([name, value]) => `${name}: ${value}`)
  socket.end(`HTTP/1.1 ${status} ${reason}\r\n${lines.join('\r\n')}\r\n\r\n${body}`)
}
