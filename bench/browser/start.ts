/**
 * The cold and warm start page: what an app does (startNode, then a first call), nothing else.
 * Its build is also what "page client" means in the bundle sizes. `?name=` picks the chain.
 */
import { startNode } from '../../src/client/index.ts'

declare global {
  interface Window {
    __pageScriptStart: number
    __start?: Promise<{ toFirstAnswer: number; fromNavigation: number; blockNumber: string; firstStateRead: number }>
  }
}

/** Dev account 9 of the test mnemonic: no bench workload sends from or to it. */
const UNTOUCHED_DEV_ACCOUNT = '0xa0ee7a142d267c1f36714e4a8f75612f20a79720'

const name = new URLSearchParams(location.search).get('name') ?? 'bench-start'
window.__start = (async () => {
  const node = await startNode({ name })
  const blockNumber = (await node.provider.request({ method: 'eth_blockNumber' })) as string
  const now = performance.now()
  // Then a state read whose trie nodes are among the oldest stored: the last dev account's
  // balance, untouched since genesis (the store reads the node segments that hold them).
  await node.provider.request({ method: 'eth_getBalance', params: [UNTOUCHED_DEV_ACCOUNT, 'latest'] })
  return { toFirstAnswer: now - window.__pageScriptStart, fromNavigation: now, blockNumber, firstStateRead: performance.now() - now }
})()
