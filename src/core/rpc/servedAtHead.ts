/**
 * What a restarted chain answers while its older blocks are still being read (issue 21: a long
 * chain's warm start must not wait for them). Its head, its state and the pool are there from the
 * start; calls that need no more than those are answered at once: the chain's identity, the head,
 * and state reads and calls at `latest` or `pending`. Every other call waits for the older blocks
 * (Node.request): a lookup by hash, a block below the last ones, logs, batches, and anything that
 * mines (the miner waits for them too).
 */
const ALWAYS = new Set([
  'eth_chainId',
  'net_version',
  'net_listening',
  'web3_clientVersion',
  'eth_blockNumber',
  'eth_accounts',
  'eth_gasPrice',
  'eth_maxPriorityFeePerGas',
  'eth_syncing',
])

/** Methods that read the state at a block, and the position of their block parameter. */
const AT_BLOCK: Record<string, number> = {
  eth_getBalance: 1,
  eth_getTransactionCount: 1,
  eth_getCode: 1,
  eth_getStorageAt: 2,
  eth_call: 1,
  eth_estimateGas: 1,
}

export function servedAtHead(method: string, params: unknown): boolean {
  if (ALWAYS.has(method)) return true
  const at = Object.hasOwn(AT_BLOCK, method) ? AT_BLOCK[method] : undefined
  if (at === undefined) return false
  const block = Array.isArray(params) ? params[at] : undefined
  return block === undefined || block === 'latest' || block === 'pending'
}
