import type { MethodTable } from '../method.ts'
import { serve, serveAs } from './dev/action.ts'
import * as dev from './dev/actions.ts'

/**
 * Hardhat's names for the same operations (setters answer true, as Hardhat's do). Also under
 * hardhat_: the anvil methods viem's test client sends in hardhat mode although Hardhat itself
 * lacks them (dumpState/loadState, which hardhat#3599 asks for, and the block timestamp
 * interval, in milliseconds as viem converts it), so that client works throughout.
 */
export const hardhatMethods: MethodTable = {
  hardhat_mine: serveAs(dev.mineAction, true),
  hardhat_getAutomine: serve(dev.getAutomineAction),
  hardhat_setBalance: serveAs(dev.setBalanceAction, true),
  hardhat_setCode: serveAs(dev.setCodeAction, true),
  hardhat_setNonce: serveAs(dev.setNonceAction, true),
  hardhat_setStorageAt: serveAs(dev.setStorageAtAction, true),
  hardhat_impersonateAccount: serveAs(dev.impersonateAction, true),
  hardhat_stopImpersonatingAccount: serve(dev.stopImpersonatingAction),
  hardhat_setNextBlockBaseFeePerGas: serveAs(dev.setNextBlockBaseFeePerGasAction, true),
  hardhat_setMinGasPrice: serveAs(dev.setMinGasPriceAction, true),
  hardhat_setCoinbase: serveAs(dev.setCoinbaseAction, true),
  hardhat_setPrevRandao: serveAs(dev.setPrevRandaoAction, true),
  hardhat_dropTransaction: serve(dev.hardhatDropTransactionAction),
  hardhat_reset: serveAs(dev.resetAction, true),
  hardhat_setBlockTimestampInterval: serveAs(dev.setBlockTimestampIntervalAction('milliseconds'), true),
  hardhat_removeBlockTimestampInterval: serve(dev.removeBlockTimestampIntervalAction),
  hardhat_dumpState: serve(dev.dumpStateAction),
  hardhat_loadState: serve(dev.loadStateAction),
  hardhat_setLoggingEnabled: serveAs(dev.setLoggingEnabledAction, true),
}
