import type { MethodTable } from '../method.ts'
import { serve, serveAs } from './dev/action.ts'
import * as dev from './dev/actions.ts'

/**
 * The evm_ namespace of anvil and Hardhat (their shared names; viem's test client sends these in
 * every mode). Where the two answer differently, anvil's answer is given (the ZKsync peer,
 * anvil-zksync, is anvil-shaped).
 */
export const evmMethods: MethodTable = {
  evm_snapshot: serve(dev.snapshotAction),
  evm_revert: serve(dev.revertAction),
  evm_mine: serve(dev.evmMineAction),
  evm_increaseTime: serve(dev.increaseTimeAction),
  evm_setNextBlockTimestamp: serve(dev.setNextBlockTimestampAction),
  evm_setTime: serve(dev.setTimeAction),
  evm_setAutomine: serveAs(dev.setAutomineAction, null),
  evm_setIntervalMining: serveAs(dev.setIntervalMiningAction, null),
  evm_setBlockGasLimit: serve(dev.setBlockGasLimitAction),
  evm_setAccountNonce: serveAs(dev.setNonceAction, null),
}
