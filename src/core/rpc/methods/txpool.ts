import { bigIntToHex, type PrefixedHexString } from '@ethereumjs/util'
import { maxFeePerGas } from '../../chain/admission.ts'
import type { PoolEntry } from '../../chain/txPool.ts'
import type { Node } from '../../node.ts'
import { formatTransaction } from '../format/transaction.ts'
import { constant, type MethodTable } from '../method.ts'

type BySender<T> = Record<PrefixedHexString, Record<string, T>>

/**
 * The pool as geth's txpool_ namespace shows it: `pending` holds what can run next (each
 * sender's transactions from its state nonce on, without a gap), `queued` what waits for a gap
 * to fill. Keyed by sender (lowercase) and nonce (decimal).
 */
async function classify(node: Node): Promise<{ pending: PoolEntry[]; queued: PoolEntry[] }> {
  const pending: PoolEntry[] = []
  const queued: PoolEntry[] = []
  const stateNonces = new Map<PrefixedHexString, bigint>()
  // The pool as stored, against the head as stored (read-committed: docs/architecture.md).
  const pool = node.pool.stored
  for (const sender of pool.senders()) stateNonces.set(sender, (await node.account(sender, node.chain.head))?.nonce ?? 0n)
  for (const entry of pool.all()) {
    const stateNonce = stateNonces.get(entry.from)!
    if (entry.tx.nonce < stateNonce) continue // replaced by a mined one; the miner drops it
    const executable = entry.tx.nonce < stateNonce + BigInt(pool.executableCount(entry.from, stateNonce))
    ;(executable ? pending : queued).push(entry)
  }
  return { pending, queued }
}

function bySender<T>(entries: PoolEntry[], show: (entry: PoolEntry) => T): BySender<T> {
  const out: BySender<T> = {}
  for (const entry of [...entries].sort((a, b) => (a.tx.nonce < b.tx.nonce ? -1 : 1))) {
    ;(out[entry.from] ??= {})[entry.tx.nonce.toString()] = show(entry)
  }
  return out
}

/** geth's one-line summary: "<to>: <value> wei + <gas> gas × <fee cap> wei". */
function summary(entry: PoolEntry): string {
  const to = entry.tx.to?.toString() ?? 'contract creation'
  return `${to}: ${entry.tx.value} wei + ${entry.tx.gasLimit} gas × ${maxFeePerGas(entry.tx)} wei`
}

export const txpoolMethods = {
  txpool_content: constant(async (node) => {
    const { pending, queued } = await classify(node)
    const show = (entry: PoolEntry) => formatTransaction(entry, undefined)
    return { pending: bySender(pending, show), queued: bySender(queued, show) }
  }),
  txpool_status: constant(async (node) => {
    const { pending, queued } = await classify(node)
    return { pending: bigIntToHex(BigInt(pending.length)), queued: bigIntToHex(BigInt(queued.length)) }
  }),
  txpool_inspect: constant(async (node) => {
    const { pending, queued } = await classify(node)
    return { pending: bySender(pending, summary), queued: bySender(queued, summary) }
  }),
} satisfies MethodTable
