import { bigIntToBytes, concatBytes, setLengthLeft, utf8ToBytes } from '@ethereumjs/util'
import { keccak_256 } from '@noble/hashes/sha3.js'

/** The ZKsync transaction type byte of EIP-712 transactions. */
export const EIP712_TX_TYPE = 0x71

/**
 * What a ZKsync EIP-712 transaction signs (era's `impl EIP712TypedStructure for
 * TransactionRequest`, zksync-ethers' `EIP712Signer.getSignInput`, viem's
 * `transactionToMessage`). Addresses are uint256 (0 when absent); factory deps enter as their
 * bytecode hashes, not the bytecode.
 */
export interface Eip712SignedFields {
  chainId: bigint
  from: Uint8Array
  /** Empty for a deployment. */
  to: Uint8Array
  gasLimit: bigint
  gasPerPubdata: bigint
  maxFeePerGas: bigint
  maxPriorityFeePerGas: bigint
  /** Empty when there is no paymaster. */
  paymaster: Uint8Array
  nonce: bigint
  value: bigint
  data: Uint8Array
  factoryDepHashes: Uint8Array[]
  paymasterInput: Uint8Array
}

const keccak = (...parts: Uint8Array[]) => keccak_256(concatBytes(...parts))
const word = (value: bigint) => setLengthLeft(bigIntToBytes(value), 32)
const addressWord = (address: Uint8Array) => setLengthLeft(address, 32)

const DOMAIN_TYPEHASH = keccak(utf8ToBytes('EIP712Domain(string name,string version,uint256 chainId)'))
const TRANSACTION_TYPEHASH = keccak(
  utf8ToBytes(
    'Transaction(uint256 txType,uint256 from,uint256 to,uint256 gasLimit,uint256 gasPerPubdataByteLimit,' +
      'uint256 maxFeePerGas,uint256 maxPriorityFeePerGas,uint256 paymaster,uint256 nonce,uint256 value,' +
      'bytes data,bytes32[] factoryDeps,bytes paymasterInput)',
  ),
)
const DOMAIN_NAME = keccak(utf8ToBytes('zkSync'))
const DOMAIN_VERSION = keccak(utf8ToBytes('2'))

export function domainSeparator(chainId: bigint): Uint8Array {
  return keccak(DOMAIN_TYPEHASH, DOMAIN_NAME, DOMAIN_VERSION, word(chainId))
}

function structHash(tx: Eip712SignedFields): Uint8Array {
  return keccak(
    TRANSACTION_TYPEHASH,
    word(BigInt(EIP712_TX_TYPE)),
    addressWord(tx.from),
    addressWord(tx.to),
    word(tx.gasLimit),
    word(tx.gasPerPubdata),
    word(tx.maxFeePerGas),
    word(tx.maxPriorityFeePerGas),
    addressWord(tx.paymaster),
    word(tx.nonce),
    word(tx.value),
    keccak(tx.data),
    keccak(...tx.factoryDepHashes),
    keccak(tx.paymasterInput),
  )
}

/** The EIP-712 digest the sender signs: keccak(0x1901 ‖ domainSeparator ‖ structHash). */
export function eip712Digest(tx: Eip712SignedFields): Uint8Array {
  return keccak(new Uint8Array([0x19, 0x01]), domainSeparator(tx.chainId), structHash(tx))
}

/**
 * The transaction hash ZKsync reports: keccak(digest ‖ keccak(signature)), where the signature
 * is the custom signature or r‖s‖v with v as 27/28 (era's `get_tx_hash_with_signed_message`).
 * zksync-ethers computes it too and refuses a node that answers another hash.
 */
export function eip712TransactionHash(digest: Uint8Array, signature: Uint8Array): Uint8Array {
  return keccak(digest, keccak_256(signature))
}
