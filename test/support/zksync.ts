import { FetchRequest } from 'ethers'
import { Provider, Wallet } from 'zksync-ethers'
import type { Node } from '../../src/core/node.ts'
import { DEV } from './chain.ts'

/**
 * An unmodified zksync-ethers Provider whose HTTP requests are answered in process: its
 * FetchRequest hands each request body to `node.handleText`, exactly what an HTTP server in
 * front of the node would do. The URL is a local one, so zksync-ethers turns caching off.
 */
export function zksyncProvider(node: Node): Provider {
  const connection = new FetchRequest('http://127.0.0.1:8011')
  connection.getUrlFunc = async (request) => {
    const body = await node.handleText(new TextDecoder().decode(request.body ?? new Uint8Array()))
    return {
      statusCode: 200,
      statusMessage: 'OK',
      headers: { 'content-type': 'application/json' },
      body: new TextEncoder().encode(body ?? ''),
    }
  }
  const provider = new Provider(connection, undefined, { staticNetwork: false })
  provider.pollingInterval = 10
  return provider
}

/** A zksync-ethers Wallet of dev account `index` (its transactions are 0x71 by default). */
export function zksyncWallet(node: Node, index = 0, provider = zksyncProvider(node)): Wallet {
  return new Wallet(DEV[index].key, provider)
}
