import {
  concat,
  decodeRlp,
  encodeRlp,
  keccak256,
  SigningKey,
  toBeHex,
  Transaction,
  Wallet,
  type TransactionLike,
} from 'ethers'
import { DEV, GAS_PRICE } from './chain.ts'

/**
 * Raw signed transactions for the dev chain, built with ethers the way a wallet would, plus the
 * few malformed ones a wallet never makes (pre-EIP-155 legacy, tampered signatures).
 */

export const CHAIN_ID = 260n

/** Signs `fields` over dev-chain defaults: a 1-wei EIP-1559 transfer to DEV[1], nonce 0, no tip. */
export function signTx(key: string, fields: TransactionLike = {}): Promise<string> {
  const type = fields.type ?? 2
  const fees = type === 0 || type === 1 ? { gasPrice: GAS_PRICE } : { maxFeePerGas: 2n * GAS_PRICE, maxPriorityFeePerGas: 0n }
  return new Wallet(key).signTransaction({
    type,
    chainId: CHAIN_ID,
    to: DEV[1].address,
    value: 1n,
    gasLimit: 21_000n,
    nonce: 0,
    ...fees,
    ...fields,
  })
}

/** A transfer of `value` wei from dev account 0 to DEV[1], paying exactly the base fee. */
export function signTransfer(nonce = 0, value = 1n): Promise<string> {
  return signTx(DEV[0].key, { nonce, value, maxFeePerGas: GAS_PRICE })
}

/** A legacy transaction signed over its 6-field hash: no chain id, v is 27 or 28. */
export function signPreEip155(key: string, fields: TransactionLike = {}): string {
  const tx = Transaction.from({
    type: 0,
    to: DEV[1].address,
    value: 1n,
    gasLimit: 21_000n,
    gasPrice: GAS_PRICE,
    nonce: 0,
    ...fields,
    chainId: 0n,
  })
  tx.signature = new SigningKey(key).sign(tx.unsignedHash)
  return tx.serialized
}

/** The RLP fields of a typed (EIP-2718) transaction: everything after the type byte. */
function typedFields(raw: string): string[] {
  return decodeRlp(`0x${raw.slice(4)}`) as string[]
}

function typedRaw(type: string, fields: string[]): string {
  return `0x${type}${encodeRlp(fields).slice(2)}`
}

/** An EIP-1559 transaction whose signature fields [yParity, r, s] are replaced, unsigned again. */
export function withSignature(raw: string, edit: (sig: string[]) => string[]): string {
  const fields = typedFields(raw)
  return typedRaw(raw.slice(2, 4), [...fields.slice(0, -3), ...edit(fields.slice(-3))])
}

/**
 * An EIP-1559 transaction with its unsigned fields edited, then signed by `key`: for fields
 * ethers refuses to sign (a tip above the fee cap). Order: chainId, nonce, tip, feeCap, gas, to,
 * value, data, accessList.
 */
export function resignedWith(key: string, raw: string, edit: (fields: string[]) => string[]): string {
  const unsigned = edit(typedFields(raw).slice(0, -3))
  const sig = new SigningKey(key).sign(keccak256(concat(['0x02', encodeRlp(unsigned)])))
  return typedRaw('02', [...unsigned, sig.yParity === 1 ? '0x01' : '0x', toBeHex(sig.r), toBeHex(sig.s)])
}

export function txHash(raw: string): string {
  return Transaction.from(raw).hash!
}
