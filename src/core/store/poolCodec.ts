import type { Common } from '@ethereumjs/common'
import { RLP } from '@ethereumjs/rlp'
import { bigIntToUnpaddedBytes, bytesToBigInt, hexToBytes } from '@ethereumjs/util'
import { bytesToHex } from '../hexText.ts'
import { transactionBytes, type SignedTransaction } from '../exec/rawTransaction.ts'
import { decodeTransaction } from './blockCodec.ts'

/**
 * A pooled transaction as the store keeps it: RLP [signedTx, hash, from, receivedAtMs], the
 * transaction fields of a block record (blockCodec.ts) without a receipt. The sender is stored,
 * not recovered again: an impersonated transaction's stand-in signature recovers no one.
 */
export function encodePoolEntry(entry: SignedTransaction & { receivedAtMs: number }): Uint8Array {
  return RLP.encode([transactionBytes(entry), hexToBytes(entry.hash), hexToBytes(entry.from), bigIntToUnpaddedBytes(BigInt(entry.receivedAtMs))])
}

export function decodePoolEntry(bytes: Uint8Array, common: Common): SignedTransaction & { receivedAtMs: number } {
  const [raw, hash, from, receivedAtMs] = RLP.decode(bytes) as Uint8Array[]
  const signed = decodeTransaction(raw, bytesToHex(hash), bytesToHex(from), common)
  return { ...signed, receivedAtMs: Number(bytesToBigInt(receivedAtMs)) }
}
