import type { Node, RequestArguments } from '../node.ts'
import { handleJsonRpcText } from './envelope.ts'
import { Subscriptions, type SubscriptionMessage } from './subscriptions.ts'

/**
 * One caller that can be pushed to (a WebSocket connection, createNode's own `request`): the
 * node's methods plus eth_subscribe/eth_unsubscribe, whose subscriptions belong to this caller
 * alone (at most `maxSubscriptions` of them) and end with `close()`. Over HTTP there is no
 * session, so there are no subscriptions: the method table leaves them out.
 */
export class RpcSession {
  private readonly subscriptions: Subscriptions

  constructor(
    private readonly node: Node,
    push: (message: SubscriptionMessage) => void,
  ) {
    this.subscriptions = new Subscriptions(node, push)
  }

  /** How many subscriptions are active. */
  get subscriptionCount(): number {
    return this.subscriptions.size
  }

  request({ method, params }: RequestArguments): Promise<unknown> {
    // Through Node.run like any call, so a bug here is reported and answered as the others are.
    if (method === 'eth_subscribe') return this.node.run(method, params, () => this.subscriptions.subscribe(params))
    if (method === 'eth_unsubscribe') {
      return this.node.run(method, params, () => this.subscriptions.unsubscribe(Array.isArray(params) ? params[0] : undefined))
    }
    return this.node.request({ method, params })
  }

  /** A JSON-RPC request or batch as text, answered as text (undefined: notifications only). */
  handleText(text: string): Promise<string | undefined> {
    return handleJsonRpcText(text, (method, params) => this.request({ method, params }), { limits: this.node.config.limits })
  }

  /** Ends every subscription (the connection went away). */
  close(): void {
    this.subscriptions.close()
  }
}
