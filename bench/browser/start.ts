/**
 * The cold and warm start page: what an app does (startNode, then a first call), nothing else.
 * Its build is also what "page client" means in the bundle sizes. `?name=` picks the chain;
 * `?raw=` is a signed transaction to send after the first state read, timed to its durable
 * acknowledgement (the first transaction after a warm start).
 */
import { startNode } from '../../src/client/index.ts'

declare global {
  interface Window {
    __pageScriptStart: number
    __start?: Promise<{ toFirstAnswer: number; fromNavigation: number; blockNumber: string; firstStateRead: number; firstTransaction?: number }>
  }
}

/** Dev account 9 of the test mnemonic: no bench workload sends from or to it. */
const UNTOUCHED_DEV_ACCOUNT = '0xa0ee7a142d267c1f36714e4a8f75612f20a79720'

const query = new URLSearchParams(location.search)
const name = query.get('name') ?? 'bench-start'
const raw = query.get('raw')
window.__start = (async () => {
  const node = await startNode({ name })
  const blockNumber = (await node.provider.request({ method: 'eth_blockNumber' })) as string
  const now = performance.now()
  // Then a state read whose trie nodes are among the oldest stored: the last dev account's
  // balance, untouched since genesis (the store reads the node segments that hold them).
  await node.provider.request({ method: 'eth_getBalance', params: [UNTOUCHED_DEV_ACCOUNT, 'latest'] })
  const firstStateRead = performance.now() - now
  let firstTransaction: number | undefined
  if (raw) {
    const sent = performance.now()
    await node.provider.request({ method: 'eth_sendRawTransaction', params: [raw] })
    firstTransaction = performance.now() - sent
  }
  return { toFirstAnswer: now - window.__pageScriptStart, fromNavigation: now, blockNumber, firstStateRead, firstTransaction }
})()
