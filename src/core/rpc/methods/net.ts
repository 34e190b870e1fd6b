import { constant, type MethodTable } from '../method.ts'

export const netMethods: MethodTable = {
  net_version: constant((node) => String(node.config.chainId)),
  // The node answers requests, so it is listening; it has no peers to talk to.
  net_listening: constant(() => true),
  net_peerCount: constant(() => '0x0'),
}
