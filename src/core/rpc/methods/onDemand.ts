/**
 * The code of the methods a page rarely calls, loaded on the first call of one of them: tracing
 * (debug_trace*, ots_*), Otterscan's views and address index, eth_simulateV1, eth_createAccessList
 * and the state dump (anvil_dumpState/loadState, hardhat's). One module, so that a bundler makes
 * it one lazy chunk, and the code it shares with the rest of the node stays in the worker's own
 * chunk (a dynamic import per feature left the startup code in six files, which gzip ~10 KB worse
 * than one: bench/README.md, "Worker bundle").
 */
export { createTracer } from '../../trace/createTracer.ts'
export { traceBlock, traceCall, traceTransaction } from '../../trace/replay.ts'
export { CallTreeView, FailureOutput, internalOperations, otsTraceEntries } from '../../trace/otterscan.ts'
export { addressIndexOf } from '../../trace/addressIndex.ts'
export { simulate } from '../../exec/simulate.ts'
export { createAccessList } from '../../exec/accessList.ts'
export { dumpState, loadState } from '../../dev/stateDump.ts'
