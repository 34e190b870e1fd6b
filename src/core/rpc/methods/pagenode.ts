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
}
