/**
 * Which JSON-RPC methods a node may run twice without anyone telling the difference. When a
 * leader or an HTTP relay goes away with a call in hand, what was taken may have run: reads are
 * sent again, writes fail as "outcome unknown" rather than run twice.
 */

/** Methods that change nothing: the node's state, its filters and subscriptions included. */
export function isRead(method: string): boolean {
  return !/^(eth_send|eth_sign|personal_|evm_|anvil_|hardhat_|wallet_|zks_send|unstable_send|eth_subscribe|eth_unsubscribe|eth_newFilter|eth_newBlockFilter|eth_newPendingTransactionFilter|eth_uninstallFilter|eth_getFilterChanges)/.test(
    method,
  )
}

/**
 * Methods whose repetition cannot change anything a second time: reads, and a raw transaction
 * (idempotent by hash, when the node is told it is a retry: Leader.call's `retried`).
 */
export function isRetrySafe(method: string): boolean {
  return method === 'eth_sendRawTransaction' || isRead(method)
}
