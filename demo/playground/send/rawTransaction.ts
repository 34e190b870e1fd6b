/**
 * What a pasted signed transaction says, before it is sent: viem decodes it (and, for ZKsync's
 * EIP-712 type 0x71, viem/zksync), and the sender is recovered from the signature, so the person
 * can check the sender, nonce, recipient and value against what they meant to send.
 */
import { isHex, parseTransaction, recoverTransactionAddress } from 'viem'
import { parseEip712Transaction } from 'viem/zksync'
import type { Hex } from '../session.ts'

export interface DecodedTransaction {
  type: string
  chainId: number | undefined
  from: Hex | undefined
  to: Hex | undefined
  nonce: number | undefined
  value: bigint
  gas: bigint | undefined
  /** "45250000 wei" per gas: gasPrice, or maxFeePerGas for fee-market types. */
  feeCap: bigint | undefined
  data: Hex
}

export type RawInput = { ok: true; raw: Hex; decoded: DecodedTransaction } | { ok: false; problem: string }

export async function decodeRawTransaction(text: string): Promise<RawInput> {
  const raw = text.trim().replace(/\s+/g, '')
  if (raw === '') return { ok: false, problem: 'Paste a signed transaction: 0x-prefixed hex, as a wallet or viem’s signTransaction gives it.' }
  if (!isHex(raw, { strict: true }) || raw.length % 2 !== 0) return { ok: false, problem: 'A signed transaction is 0x followed by an even number of hex digits.' }
  try {
    if (raw.startsWith('0x71')) {
      const tx = parseEip712Transaction(raw)
      return {
        ok: true,
        raw,
        decoded: { type: 'eip712 (0x71, ZKsync)', chainId: tx.chainId, from: tx.from as Hex, to: tx.to as Hex | undefined, nonce: tx.nonce, value: tx.value ?? 0n, gas: tx.gas, feeCap: tx.maxFeePerGas, data: (tx.data ?? '0x') as Hex },
      }
    }
    const tx = parseTransaction(raw)
    if (tx.r === undefined || tx.s === undefined) return { ok: false, problem: 'This transaction is not signed: it has no signature to send.' }
    const from = (await recoverTransactionAddress({ serializedTransaction: raw as Parameters<typeof recoverTransactionAddress>[0]['serializedTransaction'] })).toLowerCase() as Hex
    return {
      ok: true,
      raw,
      decoded: {
        type: tx.type ?? 'legacy',
        chainId: tx.chainId,
        from,
        to: tx.to?.toLowerCase() as Hex | undefined,
        nonce: tx.nonce,
        value: tx.value ?? 0n,
        gas: tx.gas,
        feeCap: 'maxFeePerGas' in tx && tx.maxFeePerGas !== undefined ? tx.maxFeePerGas : 'gasPrice' in tx ? tx.gasPrice : undefined,
        data: (tx.data ?? '0x') as Hex,
      },
    }
  } catch (error) {
    const message = error instanceof Error ? (error as { shortMessage?: string }).shortMessage ?? error.message : String(error)
    return { ok: false, problem: `Not a transaction viem can decode: ${message}` }
  }
}
