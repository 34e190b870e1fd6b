import { onDemandMethods, type MethodTable } from '../method.ts'
import { anvilMethods } from './anvil.ts'
import { blockMethods } from './eth/blocks.ts'
import { executionMethods } from './eth/execution.ts'
import { feeMethods } from './eth/fees.ts'
import { logMethods } from './eth/logs.ts'
import { nodeMethods } from './eth/node.ts'
import { stateMethods } from './eth/state.ts'
import { transactionMethods } from './eth/transactions.ts'
import { evmMethods } from './evm.ts'
import { hardhatMethods } from './hardhat.ts'
import { netMethods } from './net.ts'
import { pagenodeMethods } from './pagenode.ts'
import { walletMethods } from './wallet.ts'
import { web3Methods } from './web3.ts'

/**
 * The methods a page rarely calls, whose code (params and handler) loads on the first call of
 * any of them: core/onDemand.ts, one lazy chunk of the worker's bundle. Named here, so that the
 * node knows them from the start; each file named below holds their specs.
 */
const rareMethods = onDemandMethods(
  [
    // eth/proof.ts
    'eth_getProof',
    // eth/simulate.ts
    'eth_simulateV1',
    // typedData.ts
    'eth_signTypedData_v4',
    // debug.ts
    'debug_traceTransaction',
    'debug_traceCall',
    'debug_traceBlockByNumber',
    'debug_traceBlockByHash',
    // debugRaw.ts
    'debug_getRawHeader',
    'debug_getRawBlock',
    'debug_getRawReceipts',
    'debug_getRawTransaction',
    // txpool.ts
    'txpool_content',
    'txpool_status',
    'txpool_inspect',
    // ots.ts
    'ots_getApiLevel',
    'erigon_getHeaderByNumber',
    'ots_hasCode',
    'ots_getInternalOperations',
    'ots_traceTransaction',
    'ots_getTransactionError',
    'ots_getBlockDetails',
    'ots_getBlockDetailsByHash',
    'ots_getBlockTransactions',
    'ots_searchTransactionsBefore',
    'ots_searchTransactionsAfter',
    'ots_getTransactionBySenderAndNonce',
    'ots_getContractCreator',
    // zks.ts
    'zks_estimateFee',
    'zks_estimateGasL1ToL2',
    'zks_gasPerPubdata',
    'zks_getFeeParams',
    'zks_getBatchFeeInput',
    'zks_getL1GasPrice',
    'zks_L1ChainId',
    'zks_getMainContract',
    'zks_getBridgehubContract',
    'zks_getBridgeContracts',
    'zks_getBaseTokenL1Address',
    'zks_getTestnetPaymaster',
    'zks_getTimestampAsserter',
    'zks_getL2Multicall3',
    'zks_getConfirmedTokens',
    'zks_getAllAccountBalances',
    'zks_getProtocolVersion',
    'zks_L1BatchNumber',
    'zks_getL1BatchBlockRange',
    'zks_getL1BatchDetails',
    'zks_getBlockDetails',
    'zks_getTransactionDetails',
    'zks_getRawBlockTransactions',
    'zks_getBytecodeByHash',
    'zks_getL2ToL1LogProof',
    'zks_getL2ToL1MsgProof',
    'zks_getProof',
    'zks_sendRawTransactionWithDetailedOutput',
    'unstable_sendRawTransactionWithDetailedOutput',
  ],
  async () => (await import('../../onDemand.ts')).rareMethods,
)

/** Every method the node serves, by name. */
export const methods: MethodTable = {
  ...nodeMethods,
  ...feeMethods,
  ...stateMethods,
  ...executionMethods,
  ...blockMethods,
  ...transactionMethods,
  ...logMethods,
  ...netMethods,
  ...web3Methods,
  ...walletMethods,
  ...evmMethods,
  ...anvilMethods,
  ...hardhatMethods,
  ...pagenodeMethods,
  ...rareMethods,
}
