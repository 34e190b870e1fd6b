/**
 * The code a node loads on first use, not at start: one module, so that a bundler makes it one
 * lazy chunk, and the code it shares with the rest of the node stays in the worker's own chunk
 * (a dynamic import per feature left the startup code in several files, which gzip worse than
 * one: bench/README.md, "Worker bundle"). What is here:
 *
 * - the methods a page rarely calls, whose whole spec is here (rpc/methods/index.ts names
 *   them: onDemandMethods in rpc/method.ts): debug_trace* and ots_ with the tracers, the replay,
 *   Otterscan's views and address index; debug_getRaw*; txpool_; eth_getProof; eth_simulateV1;
 *   eth_signTypedData_v4; the zks_ and unstable_ namespace;
 * - eth_createAccessList's runs, the state dump (anvil_dumpState/loadState, hardhat's) and the
 *   reset (anvil_reset, hardhat_reset, anvil_setRpcUrl);
 * - ZKsync's bootloader flows (contract accounts, paymasters), which only a 0x71 transaction
 *   needs (exec/bootloaderEntry.ts), and the estimates that run them (exec/estimateGas.ts).
 */
import { debugMethods } from './rpc/methods/debug.ts'
import { debugRawMethods } from './rpc/methods/debugRaw.ts'
import { proofMethods } from './rpc/methods/eth/proof.ts'
import { simulateMethods } from './rpc/methods/eth/simulate.ts'
import { otsMethods } from './rpc/methods/ots.ts'
import { txpoolMethods } from './rpc/methods/txpool.ts'
import { typedDataMethods } from './rpc/methods/typedData.ts'
import { unstableMethods, zksMethods } from './rpc/methods/zks.ts'

/** The specs of the methods rpc/methods/index.ts names as rare. */
export const rareMethods = {
  ...proofMethods,
  ...simulateMethods,
  ...typedDataMethods,
  ...debugMethods,
  ...debugRawMethods,
  ...txpoolMethods,
  ...otsMethods,
  ...zksMethods,
  ...unstableMethods,
}

export { createAccessList } from './exec/accessList.ts'
export { dumpState, loadState } from './dev/stateDump.ts'
export { resetChain, setUpstreamUrl } from './dev/reset.ts'
export { runAsBootloader, validateForAdmission } from './exec/bootloader.ts'
export { estimateWithBootloaderSteps } from './exec/bootloaderEstimate.ts'
