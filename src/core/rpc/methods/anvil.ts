import type { MethodTable } from '../method.ts'
import { serve, serveAs } from './dev/action.ts'
import * as dev from './dev/actions.ts'

/** anvil's dev-node methods (setters answer null, as anvil's do), with its anvil_ aliases of evm_ names. */
export const anvilMethods: MethodTable = {
  anvil_mine: serveAs(dev.mineAction, null),
  anvil_getAutomine: serve(dev.getAutomineAction),
  anvil_setAutomine: serveAs(dev.setAutomineAction, null),
  anvil_setIntervalMining: serveAs(dev.setIntervalMiningAction, null),
  anvil_snapshot: serve(dev.snapshotAction),
  anvil_revert: serve(dev.revertAction),
  anvil_increaseTime: serve(dev.increaseTimeAction),
  anvil_setNextBlockTimestamp: serve(dev.setNextBlockTimestampAction),
  anvil_setTime: serve(dev.setTimeAction),
  anvil_setBlockGasLimit: serve(dev.setBlockGasLimitAction),
  anvil_setBalance: serveAs(dev.setBalanceAction, null),
  anvil_setCode: serveAs(dev.setCodeAction, null),
  anvil_setNonce: serveAs(dev.setNonceAction, null),
  anvil_setStorageAt: serveAs(dev.setStorageAtAction, null),
  anvil_impersonateAccount: serveAs(dev.impersonateAction, null),
  anvil_stopImpersonatingAccount: serveAs(dev.stopImpersonatingAction, null),
  anvil_autoImpersonateAccount: serveAs(dev.autoImpersonateAction, null),
  anvil_setNextBlockBaseFeePerGas: serveAs(dev.setNextBlockBaseFeePerGasAction, null),
  anvil_setMinGasPrice: serveAs(dev.setMinGasPriceAction, null),
  anvil_setCoinbase: serveAs(dev.setCoinbaseAction, null),
  anvil_setBlockTimestampInterval: serveAs(dev.setBlockTimestampIntervalAction('seconds'), null),
  anvil_removeBlockTimestampInterval: serve(dev.removeBlockTimestampIntervalAction),
  anvil_dropTransaction: serve(dev.dropTransactionAction),
  anvil_dropAllTransactions: serveAs(dev.dropAllTransactionsAction, null),
  anvil_reset: serveAs(dev.resetAction, null),
  anvil_setRpcUrl: serveAs(dev.setRpcUrlAction, null),
  anvil_dumpState: serve(dev.dumpStateAction),
  anvil_loadState: serve(dev.loadStateAction),
  anvil_nodeInfo: serve(dev.nodeInfoAction),
  anvil_setLoggingEnabled: serveAs(dev.setLoggingEnabledAction, null),
}
