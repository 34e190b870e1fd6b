/// <reference lib="webworker" />
/**
 * The sender-recovery helper of a node worker (senderRecovery.ts): decodes raw transactions and
 * recovers their senders with the node's own code, and sends back each recovery's arguments and
 * public key for the node to reuse. It keeps nothing and decides nothing: the node checks every
 * transaction itself.
 */
import type { Common } from '@ethereumjs/common'
import { createFeeMarket1559Tx, createTxFromRLP } from '@ethereumjs/tx'
import { hexToBytes, type PrefixedHexString } from '@ethereumjs/util'
import { createChainCommon } from '../core/exec/chainCommon.ts'
import { loadFastCrypto, observeRecoveries, type Recovery } from '../core/exec/fastCrypto.ts'
import type { RecoveryReply, RecoveryRequest } from './senderRecovery.ts'

declare const self: DedicatedWorkerGlobalScope

const commons = new Map<number, Common>()

self.onmessage = ({ data: { id, chainId, raws } }: MessageEvent<RecoveryRequest>) => {
  let common = commons.get(chainId)
  if (!common) commons.set(chainId, (common = createChainCommon(chainId)))
  const recoveries: Recovery[] = []
  observeRecoveries((recovery) => recoveries.push(recovery))
  for (const raw of raws) {
    try {
      createTxFromRLP(hexToBytes(raw as PrefixedHexString), { common }).getSenderAddress()
    } catch {
      // Not a transaction this helper can decode (a ZKsync 0x71, a malformed one): the node says why.
    }
  }
  observeRecoveries(undefined)
  self.postMessage({ id, recoveries } satisfies RecoveryReply)
}
/**
 * Recoveries this helper runs before it says it is ready: a new thread's engine has not compiled
 * the decoding code (nor noble's BigInt arithmetic, where WebAssembly cannot load) yet, and until
 * it has, the node worker recovers faster itself (bench: 300 ERC-20 transfers with 50 in flight
 * ran ~8% slower with a cold helper than with none).
 */
const WARM_UP_RECOVERIES = 150

function warmUp(): void {
  const common = createChainCommon(1)
  commons.set(1, common)
  const key = new Uint8Array(32).fill(1)
  const raw = createFeeMarket1559Tx({ chainId: 1n, gasLimit: 21_000n, maxFeePerGas: 1n }, { common }).sign(key).serialize()
  for (let i = 0; i < WARM_UP_RECOVERIES; i++) createTxFromRLP(raw, { common }).getSenderAddress()
}

// Ready once the WebAssembly recovery has loaded (or failed to) and is warm: before, the helper
// would recover slower than the node worker does.
void loadFastCrypto().then(() => {
  warmUp()
  self.postMessage({ id: -1, recoveries: [] } satisfies RecoveryReply)
})
