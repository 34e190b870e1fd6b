import { stateRootOf } from '../../../chain/records.ts'
import { SimulationError, SimulationErrorCode } from '../../../errors.ts'
import { simulate } from '../../../exec/simulate.ts'
import { formatBlock } from '../../format/block.ts'
import { formatLog } from '../../format/log.ts'
import { method, type MethodTable } from '../../method.ts'
import { blockOrLatest } from '../../params.ts'
import { simulatePayload } from '../../simulatePayload.ts'

/** execution-apis' suggested bound on blockStateCalls: BLOCKHASH's reach. */
const MAX_SIMULATED_BLOCKS = 256

/** eth_simulateV1, loaded on its first call (onDemand.ts), its payload's parser with it. */
export const simulateMethods = {
  eth_simulateV1: method([simulatePayload('payload'), blockOrLatest()], async (node, [payload, ref]) => {
    if (payload.blocks.length > MAX_SIMULATED_BLOCKS) {
      throw new SimulationError(SimulationErrorCode.clientLimit, `too many blocks: ${payload.blocks.length}, at most ${MAX_SIMULATED_BLOCKS}`)
    }
    const base = node.block(ref)
    // A sandbox of its own, dropped afterwards: the simulation commits block after block in it
    // (state roots are read between blocks, which an open checkpoint would not allow).
    const sandbox = await node.state.freshSandbox(stateRootOf(base))
    const results = await sandbox.read((vm) =>
      simulate(
        vm,
        { header: base.header, baseFee: node.params.baseFee(), callGasCap: node.config.limits.callGasCap },
        payload.blocks,
        payload,
      ),
    )
    return results.map(({ block, calls }) => ({
      ...formatBlock(block, payload.returnFullTransactions),
      calls: calls.map((call, i) => {
        const tx = block.transactions[i]
        return {
          returnData: call.returnData,
          logs: call.logs.map((log) => formatLog(log, tx, block)),
          gasUsed: `0x${call.gasUsed.toString(16)}`,
          maxUsedGas: `0x${call.maxUsedGas.toString(16)}`,
          status: call.status === 1 ? '0x1' : '0x0',
          ...(call.error ? { error: call.error } : {}),
        }
      }),
    }))
  }),
} satisfies MethodTable
