/// <reference lib="webworker" />
/**
 * The sender-recovery helper of a node worker (senderRecovery.ts): decodes raw transactions and
 * recovers their senders with the node's own code, and sends back each recovery's arguments and
 * public key for the node to reuse. It keeps nothing and decides nothing: the node checks every
 * transaction itself.
 */
import type { Common } from '@ethereumjs/common'
import { createTxFromRLP } from '@ethereumjs/tx'
import { hexToBytes, type PrefixedHexString } from '@ethereumjs/util'
import { createChainCommon } from '../core/exec/chainCommon.ts'
import { observeRecoveries, type Recovery } from '../core/exec/fastCrypto.ts'
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
self.postMessage({ id: -1, recoveries: [] } satisfies RecoveryReply)
