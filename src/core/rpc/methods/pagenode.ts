import { bigIntToHex } from '@ethereumjs/util'
import type { Node } from '../../node.ts'
import { method, type MethodTable } from '../method.ts'
import { hash } from '../params.ts'

/** pagenode's own methods: what no other node serves under a standard name. */
export const pagenodeMethods: MethodTable = {
  // What a mined transaction's console.log calls printed, for a UI to show after the fact (the
  // CLI prints it as it happens; createNode and the page emit `consoleLog` events). Kept in
  // memory with the block: a chain reopened from its store answers [] for what it mined before.
  pagenode_consoleLogs: method([hash('transactionHash')], (node, [txHash]) => {
    const mined = node.chain.transaction(txHash)
    return mined ? (mined.consoleLogs ?? []) : null
  }),
  // The dev-node settings the node keeps with its chain (src/core/dev/persistedSettings.ts), for
  // a UI to show what a reload restored: no standard method reads the interval's length, the
  // clock's offset or the snapshots taken.
  pagenode_devSettings: method([], (node) => devSettings(node)),
}

function devSettings(node: Node) {
  const mining = node.mining.current
  return {
    mining: mining.mode === 'interval' ? { mode: mining.mode, intervalSeconds: mining.intervalMs / 1000 } : { mode: mining.mode },
    timeOffsetSeconds: Number(node.clock.offsetSeconds),
    impersonatedAccounts: node.impersonation.list(),
    autoImpersonate: node.impersonation.auto,
    snapshots: node.snapshots.all().taken.map(([id, snapshot]) => ({ id: bigIntToHex(id), blockNumber: bigIntToHex(snapshot.head), blockHash: snapshot.headHash, takenAt: snapshot.clock.atMs })),
  }
}
