import { createTx, type TypedTransaction, type TypedTxData } from '@ethereumjs/tx'
import { bigIntToHex, bytesToBigInt, concatBytes, createAddressFromString, hexToBytes, type PrefixedHexString } from '@ethereumjs/util'
import { bytesToHex } from '../hexText.ts'
import { keccak_256 } from '@noble/hashes/sha3.js'
import { engineMessage } from '../exec/engineMessage.ts'
import type { SignedTransaction } from '../exec/rawTransaction.ts'
import type { Node } from '../node.ts'
import { InvalidParamsError, UnauthorizedError } from '../errors.ts'
import { estimateGasAt } from '../exec/estimateGas.ts'
import type { TransactionRequest } from '../rpc/transactionObject.ts'
import { devAccount } from './signer.ts'
import { transactionLimits } from '../exec/codeSizeLimit.ts'

const LATEST = { kind: 'tag', tag: 'latest' } as const

/**
 * The transaction a request describes, with what it leaves out filled in as a wallet would:
 * the next nonce (pooled transactions counted), gas by eth_estimateGas, and fees at the node's
 * price (no tip: the base fee is the whole L2 price). The type follows the fee fields: a
 * gasPrice makes a legacy (or, with an access list, EIP-2930) transaction, anything else
 * EIP-1559.
 */
export async function fillTransaction(node: Node, request: TransactionRequest): Promise<TypedTxData> {
  if (request.chainId !== undefined && request.chainId !== node.chainId) {
    throw new InvalidParamsError(
      `invalid argument 0 (transaction): chainId ${bigIntToHex(request.chainId)} is not this chain's (${bigIntToHex(node.chainId)})`,
    )
  }
  const nonce = request.nonce ?? (await nextNonce(node, request.from))
  const gasLimit =
    request.gas ??
    (await estimateGasAt(node, { from: request.from, to: request.to, value: request.value, data: request.data, accessList: request.accessList }, LATEST, undefined))
  const type = request.type ?? (request.gasPrice !== undefined ? (request.accessList ? 1 : 0) : 2)
  const shared = {
    type,
    nonce,
    gasLimit,
    to: request.to,
    value: request.value ?? 0n,
    data: request.data ?? new Uint8Array(),
    chainId: node.chainId,
  }
  if (type !== 2) {
    if (request.maxFeePerGas !== undefined || request.maxPriorityFeePerGas !== undefined) {
      throw new InvalidParamsError(`invalid argument 0 (transaction): a type ${type} transaction takes gasPrice, not maxFeePerGas/maxPriorityFeePerGas`)
    }
    return { ...shared, gasPrice: request.gasPrice ?? node.params.gasPrice(), ...(type === 1 ? { accessList: request.accessList ?? [] } : {}) }
  }
  if (request.gasPrice !== undefined) {
    throw new InvalidParamsError('invalid argument 0 (transaction): an EIP-1559 transaction takes maxFeePerGas/maxPriorityFeePerGas, not gasPrice')
  }
  const tip = request.maxPriorityFeePerGas ?? 0n
  return { ...shared, maxPriorityFeePerGas: tip, maxFeePerGas: request.maxFeePerGas ?? node.params.gasPrice() + tip, accessList: request.accessList ?? [] }
}

/**
 * The sender's next nonce: its nonce at the miner's head (stored or not: a block on its way to
 * the store already used its nonces) plus the pooled transactions that follow it.
 */
async function nextNonce(node: Node, from: PrefixedHexString): Promise<bigint> {
  const nonce = (await node.miner.headAccount(from))?.nonce ?? 0n
  return nonce + BigInt(node.pool.executableCount(from, nonce))
}

function build(node: Node, data: TypedTxData, opts: { freeze: boolean }): TypedTransaction {
  try {
    return createTx(data, { common: node.common, ...opts, ...transactionLimits(node.common) })
  } catch (error) {
    throw new InvalidParamsError(`invalid argument 0 (transaction): ${engineMessage(error)}`, { cause: error })
  }
}

/** The filled transaction left unsigned, for the client to sign (eth_fillTransaction): any sender. */
export function unsignedTransaction(node: Node, data: TypedTxData): TypedTransaction {
  return build(node, data, { freeze: true })
}

/** Signed with a dev account's key (4100 for any other sender). */
export function signWithDevKey(node: Node, from: PrefixedHexString, data: TypedTxData): SignedTransaction {
  const key = devAccount(node, from).privateKey
  const tx = build(node, data, { freeze: true }).sign(key, false)
  return { tx, hash: bytesToHex(tx.hash()), from }
}

/**
 * A transaction from `from` that nobody signed (impersonation, eth_sendUnsignedTransaction). It
 * carries a stand-in signature so that it has a hash and bytes like any other (blocks, the
 * transactions trie, the store, eth_getTransactionByHash), as Hardhat's impersonated ones do:
 * r and s derived from the sender and the unsigned transaction, so that the same transaction
 * from two senders gets two hashes. The sender is never recovered from it: it is `from`, here and
 * when the block is read back (store/blockCodec.ts).
 */
export function unsignedFrom(node: Node, from: PrefixedHexString, data: TypedTxData): SignedTransaction {
  const digest = keccak_256(concatBytes(hexToBytes(from), build(node, data, { freeze: true }).getHashedMessageToSign()))
  const r = (bytesToBigInt(digest) % (SECP256K1_N - 1n)) + 1n
  const s = (bytesToBigInt(keccak_256(digest)) % (SECP256K1_N / 2n - 1n)) + 1n
  // Legacy: EIP-155's v for this chain with parity 0; typed: y-parity 0.
  const v = data.type === 0 ? node.chainId * 2n + 35n : 0n
  const tx = build(node, { ...data, v, r, s }, { freeze: false })
  const sender = createAddressFromString(from)
  tx.getSenderAddress = () => sender
  return { tx, hash: bytesToHex(tx.hash()), from }
}

const SECP256K1_N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n

/**
 * eth_sendTransaction's sender rule: a dev account signs with its key; an impersonated sender
 * (anvil_impersonateAccount, anvil_autoImpersonateAccount) goes unsigned; anyone else is refused
 * with EIP-1193's 4100. Asked before the transaction is filled, as Hardhat and anvil do: a sender
 * the node cannot send for is told so, not what estimating its transaction ran into (a revert).
 */
export function authorize(node: Node, from: PrefixedHexString): (data: TypedTxData) => SignedTransaction {
  if (node.accounts.some((a) => a.address.toString() === from)) return (data) => signWithDevKey(node, from, data)
  if (node.impersonation.allows(from)) return (data) => unsignedFrom(node, from, data)
  throw new UnauthorizedError(
    `the node cannot send for ${from}: it holds keys for its dev accounts only (eth_accounts); impersonate it first (anvil_impersonateAccount)`,
  )
}
