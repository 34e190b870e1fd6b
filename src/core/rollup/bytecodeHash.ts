import { sha256 } from '@noble/hashes/sha2.js'

/** era's MAX_BYTECODE_LEN_BYTES: the length fits in two bytes of 32-byte words. */
const MAX_BYTECODE_WORDS = 2 ** 16 - 1

/** A factory dependency that is not EraVM-shaped bytecode (era refuses the transaction). */
export class InvalidBytecodeError extends Error {
  override name = 'InvalidBytecodeError'
}

/**
 * ZKsync's versioned bytecode hash: 0x01 0x00, the length in 32-byte words (u16, big-endian),
 * then the last 28 bytes of sha256(bytecode). Factory dependencies are signed and looked up by
 * it (EIP-712 `factoryDeps`, zks_getBytecodeByHash). The shape rules are era's: whole words, an
 * odd number of them.
 */
export function bytecodeHash(bytecode: Uint8Array): Uint8Array {
  if (bytecode.length % 32 !== 0) throw new InvalidBytecodeError('the bytecode length in bytes must be divisible by 32')
  const words = bytecode.length / 32
  if (words > MAX_BYTECODE_WORDS) throw new InvalidBytecodeError(`the bytecode is longer than ${MAX_BYTECODE_WORDS * 32} bytes`)
  if (words % 2 === 0) throw new InvalidBytecodeError('the bytecode length in 32-byte words must be odd')
  const hash = sha256(bytecode)
  hash[0] = 1
  hash[1] = 0
  hash[2] = words >> 8
  hash[3] = words & 0xff
  return hash
}

/**
 * ZKsync's versioned hash of EVM bytecode (era's Utils.hashEVMBytecode): 0x02 0x00, the length in
 * bytes (u16, big-endian), then the last 28 bytes of sha256 of the code padded with zeros to an
 * odd number of 32-byte words. What ZKsync's ContractDeployed event names an EVM contract by.
 */
export function evmBytecodeHash(code: Uint8Array): Uint8Array {
  let words = Math.ceil(code.length / 32)
  if (words % 2 === 0) words += 1
  const padded = new Uint8Array(words * 32)
  padded.set(code)
  const hash = sha256(padded)
  hash[0] = 2
  hash[1] = 0
  hash[2] = (code.length >> 8) & 0xff
  hash[3] = code.length & 0xff
  return hash
}
