import type { MethodTable } from '../method.ts'
import { anvilMethods } from './anvil.ts'
import { debugMethods } from './debug.ts'
import { debugRawMethods } from './debugRaw.ts'
import { blockMethods } from './eth/blocks.ts'
import { executionMethods } from './eth/execution.ts'
import { feeMethods } from './eth/fees.ts'
import { logMethods } from './eth/logs.ts'
import { nodeMethods } from './eth/node.ts'
import { simulateMethods } from './eth/simulate.ts'
import { stateMethods } from './eth/state.ts'
import { transactionMethods } from './eth/transactions.ts'
import { evmMethods } from './evm.ts'
import { hardhatMethods } from './hardhat.ts'
import { netMethods } from './net.ts'
import { otsMethods } from './ots.ts'
import { pagenodeMethods } from './pagenode.ts'
import { txpoolMethods } from './txpool.ts'
import { walletMethods } from './wallet.ts'
import { web3Methods } from './web3.ts'
import { unstableMethods, zksMethods } from './zks.ts'

/** Every method the node serves, by name. */
export const methods: MethodTable = {
  ...nodeMethods,
  ...feeMethods,
  ...stateMethods,
  ...executionMethods,
  ...simulateMethods,
  ...blockMethods,
  ...transactionMethods,
  ...logMethods,
  ...netMethods,
  ...web3Methods,
  ...zksMethods,
  ...unstableMethods,
  ...debugMethods,
  ...debugRawMethods,
  ...walletMethods,
  ...txpoolMethods,
  ...evmMethods,
  ...anvilMethods,
  ...hardhatMethods,
  ...otsMethods,
  ...pagenodeMethods,
}
