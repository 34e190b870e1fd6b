import { Capability, type TypedTransaction } from '@ethereumjs/tx'
import { bigIntToHex, type PrefixedHexString } from '@ethereumjs/util'
import { keccak256 } from '../../exec/fastCrypto.ts'
import { bytesToHex } from '../../hexText.ts'

/**
 * eth_fillTransaction's answer, as geth gives it: `raw`, the unsigned transaction's bytes (v, r
 * and s zero), and `tx`, that transaction in geth's own transaction JSON (types.Transaction's,
 * not the RPC object eth_getTransactionByHash answers: no block fields, every fee key present
 * with null where the type has no such fee, `hash` of the unsigned bytes).
 */
export function formatFilledTransaction(tx: TypedTransaction): { raw: PrefixedHexString; tx: Record<string, unknown> } {
  const raw = tx.serialize()
  const eip1559 = tx.supports(Capability.EIP1559FeeMarket)
  const json = tx.toJSON() as { accessList?: unknown; gasPrice?: string; maxFeePerGas?: string; maxPriorityFeePerGas?: string }
  const out: Record<string, unknown> = {
    type: bigIntToHex(BigInt(tx.type)),
    chainId: bigIntToHex(tx.common.chainId()),
    nonce: bigIntToHex(tx.nonce),
    to: tx.to ? tx.to.toString() : null,
    gas: bigIntToHex(tx.gasLimit),
    gasPrice: eip1559 ? null : json.gasPrice,
    maxPriorityFeePerGas: eip1559 ? json.maxPriorityFeePerGas : null,
    maxFeePerGas: eip1559 ? json.maxFeePerGas : null,
    value: bigIntToHex(tx.value),
    input: bytesToHex(tx.data),
  }
  if (tx.supports(Capability.EIP2930AccessLists)) out.accessList = json.accessList
  out.v = '0x0'
  out.r = '0x0'
  out.s = '0x0'
  if (tx.supports(Capability.EIP2718TypedTransaction)) out.yParity = '0x0'
  out.hash = bytesToHex(keccak256(raw))
  return { raw: bytesToHex(raw), tx: out }
}
