/**
 * ZKsync's NonceHolder system contract at 0x…8003, for what clients read of it: an account's
 * nonces. On ZKsync it stores them; here they are the EVM's account nonces, which EVM code cannot
 * read, so this is a precompile that reads the state (as P256VERIFY at 0x100 is one,
 * exec/p256Verify.ts).
 *
 * ZKsync keeps two nonces per account: the minimal nonce (transactions) and the deployment nonce
 * (contracts it created). On the EVM an account has one: an EOA's counts its transactions (its
 * CREATEs use it too), a contract's counts its creations. So an address without code answers
 * its nonce as the minimal nonce and 0 as the deployment nonce, and a contract the reverse, which
 * is what ZKsync answers for such accounts. `getRawNonce` packs them as ZKsync does: deployment
 * nonce × 2^128 + minimal nonce.
 *
 * Nonces change only through transactions here. The one write ZKsync's accounts make,
 * `incrementMinNonceIfEquals(nonce)` from their `validateTransaction`, is answered while the
 * bootloader validates a contract account's transaction (exec/accountTransaction.ts): it checks
 * the nonce is the transaction's and marks it used, and the bootloader then increments the
 * account's nonce once, whether the account called it or not. Any other write reverts and says so.
 */
import { EVMError, type CustomPrecompile, type ExecResult, type PrecompileInput } from '@ethereumjs/evm'
import { bigIntToBytes, bytesToBigInt, createAddressFromBigInt, setLengthLeft, type PrefixedHexString } from '@ethereumjs/util'
import { errorStringData } from '../exec/revertReason.ts'

export const NONCE_HOLDER_ADDRESS: PrefixedHexString = '0x0000000000000000000000000000000000008003'

/**
 * The code genesis puts at NONCE_HOLDER_ADDRESS: one INVALID byte, never run (a precompile runs
 * before any code at its address). Without code there, Solidity refuses the call an account makes
 * as ZKsync's guides write it, `INonceHolder(NONCE_HOLDER).incrementMinNonceIfEquals(nonce)`: it
 * returns nothing, so the compiler checks the target has code first.
 */
export const NONCE_HOLDER_CODE: PrefixedHexString = '0xfe'

/** A cold storage read's price (EIP-2929), what reading a nonce costs on ZKsync's contract. */
const READ_GAS = 2_100n

const selector = (hex: string) => Number.parseInt(hex, 16)
const GET_MIN_NONCE = selector('896909dc') // getMinNonce(address)
const GET_RAW_NONCE = selector('5aa9b6b5') // getRawNonce(address)
const GET_DEPLOYMENT_NONCE = selector('fb1a9a57') // getDeploymentNonce(address)
const GET_KEYED_NONCE = selector('367bbe46') // getKeyedNonce(address,uint192)
const IS_NONCE_USED = selector('cab7e8eb') // isNonceUsed(address,uint256)
const INCREMENT_MIN_NONCE_IF_EQUALS = selector('e1239cd8') // incrementMinNonceIfEquals(uint256)

/** A storage write's price (EIP-2200's SSTORE_RESET), what marking a nonce costs on ZKsync's contract. */
const WRITE_GAS = 5_000n

/** The nonce of the contract account whose validation is running on an EVM, and whether it was marked used. */
interface NonceUse {
  nonce: bigint
  used: boolean
}

const validations = new WeakMap<object, NonceUse>()

/**
 * Runs an account's `validateTransaction` (`validate`) on `evm` with the transaction's nonce open
 * to `incrementMinNonceIfEquals`; says whether the account marked it used.
 */
export async function withNonceOpen<T>(evm: object, nonce: bigint, validate: () => Promise<T>): Promise<{ result: T; marked: boolean }> {
  const use: NonceUse = { nonce, used: false }
  validations.set(evm, use)
  try {
    const result = await validate()
    return { result, marked: use.used }
  } finally {
    validations.delete(evm)
  }
}

function incrementMinNonceIfEquals(input: PrecompileInput, expected: bigint): ExecResult {
  const use = validations.get(input._EVM)
  if (!use) {
    return revert('NonceHolder: incrementMinNonceIfEquals is answered only while the bootloader validates a contract account\'s transaction', WRITE_GAS)
  }
  if (input.gasLimit < WRITE_GAS) {
    return { executionGasUsed: input.gasLimit, returnValue: new Uint8Array(), exceptionError: new EVMError(EVMError.errorMessages.OUT_OF_GAS) }
  }
  if (expected !== use.nonce) return revert(`NonceHolder: incorrect nonce: expected ${expected}, the transaction's nonce is ${use.nonce}`, WRITE_GAS)
  if (use.used) return revert('Reusing the same nonce twice', WRITE_GAS)
  use.used = true
  return { executionGasUsed: WRITE_GAS, returnValue: new Uint8Array() }
}

interface Nonces {
  min: bigint
  deployment: bigint
}

async function noncesOf(input: PrecompileInput, word: Uint8Array): Promise<Nonces> {
  const address = createAddressFromBigInt(bytesToBigInt(word) & ((1n << 160n) - 1n))
  const account = await input._EVM.stateManager.getAccount(address)
  if (!account) return { min: 0n, deployment: 0n }
  const hasCode = (await input._EVM.stateManager.getCode(address)).length > 0
  return hasCode ? { min: 0n, deployment: account.nonce } : { min: account.nonce, deployment: 0n }
}

const word = (value: bigint) => setLengthLeft(bigIntToBytes(value), 32)
const answer = (value: bigint): ExecResult => ({ executionGasUsed: READ_GAS, returnValue: word(value) })

function revert(reason: string, gas = READ_GAS): ExecResult {
  return { executionGasUsed: gas, returnValue: errorStringData(reason), exceptionError: new EVMError(EVMError.errorMessages.REVERT) }
}

export async function nonceHolder(input: PrecompileInput): Promise<ExecResult> {
  const { data } = input
  if (input.gasLimit < READ_GAS) {
    return { executionGasUsed: input.gasLimit, returnValue: new Uint8Array(), exceptionError: new EVMError(EVMError.errorMessages.OUT_OF_GAS) }
  }
  if (data.length < 4) return revert('NonceHolder: no function selector')
  const fn = new DataView(data.buffer, data.byteOffset, 4).getUint32(0)
  const arg = (i: number) => setLengthLeft(data.subarray(4 + 32 * i, 4 + 32 * (i + 1)), 32)
  if (fn === INCREMENT_MIN_NONCE_IF_EQUALS) {
    if (data.length < 4 + 32) return revert('NonceHolder: calldata too short')
    return incrementMinNonceIfEquals(input, bytesToBigInt(arg(0)))
  }
  const reads = [GET_MIN_NONCE, GET_RAW_NONCE, GET_DEPLOYMENT_NONCE, GET_KEYED_NONCE, IS_NONCE_USED]
  if (!reads.includes(fn)) {
    return revert(
      'NonceHolder: nonces change only through transactions on this node; it answers getMinNonce, getRawNonce, getDeploymentNonce, getKeyedNonce and isNonceUsed, and incrementMinNonceIfEquals during a contract account\'s validation',
    )
  }
  if (data.length < 4 + 32 * (fn === GET_KEYED_NONCE || fn === IS_NONCE_USED ? 2 : 1)) return revert('NonceHolder: calldata too short')
  const nonces = await noncesOf(input, arg(0))
  switch (fn) {
    case GET_MIN_NONCE:
      return answer(nonces.min)
    case GET_DEPLOYMENT_NONCE:
      return answer(nonces.deployment)
    case GET_RAW_NONCE:
      return answer((nonces.deployment << 128n) + nonces.min)
    case GET_KEYED_NONCE:
      // Only the key 0 (sequential nonces) is ever used here.
      return answer(bytesToBigInt(arg(1)) === 0n ? nonces.min : 0n)
    default:
      return answer(bytesToBigInt(arg(1)) < nonces.min ? 1n : 0n)
  }
}

export const NONCE_HOLDER_PRECOMPILE: CustomPrecompile = { address: NONCE_HOLDER_ADDRESS, function: nonceHolder }
