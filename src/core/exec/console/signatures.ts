import { keccak256 } from '../fastCrypto.ts'

/** An argument type of a console.sol overload. */
export type ConsoleType = 'uint256' | 'int256' | 'string' | 'bool' | 'address' | 'bytes' | `bytes${number}`

/** The types console.sol combines in its 2-, 3- and 4-argument overloads. */
const COMBINED: readonly ConsoleType[] = ['uint256', 'string', 'bool', 'address']
/** The types of its 1-argument overloads: log(T) and logInt/logUint/…/logBytes32, which send log(T). */
const SINGLE: readonly ConsoleType[] = ['int256', 'uint256', 'string', 'bool', 'address', 'bytes', ...Array.from({ length: 32 }, (_, i) => `bytes${i + 1}` as ConsoleType)]

/**
 * Every argument list console.sol's `log` sends (Hardhat's packages/hardhat-core/console.sol):
 * none, one of SINGLE, or two to four of COMBINED in every order.
 */
export function consoleSignatures(): ConsoleType[][] {
  const lists: ConsoleType[][] = [[], ...SINGLE.map((type) => [type])]
  let previous: ConsoleType[][] = [[]]
  for (let length = 1; length <= 4; length++) {
    previous = previous.flatMap((list) => COMBINED.map((type) => [...list, type]))
    if (length >= 2) lists.push(...previous)
  }
  return lists
}

let table: Map<number, readonly ConsoleType[]> | undefined

/**
 * The argument types a console call's selector stands for. The selector is the first four bytes
 * of keccak256 of the signature text console.sol passes to abi.encodeWithSignature; early copies
 * of console.sol spelled `uint`/`int` for `uint256`/`int256` there (and were deployed in many
 * contracts), so each signature is also known under that spelling, as Hardhat knows it.
 * Built at the first console call, never before (600 hashes, a millisecond or two).
 */
export function consoleTypesOf(selector: number): readonly ConsoleType[] | undefined {
  if (!table) {
    table = new Map()
    for (const types of consoleSignatures()) {
      const text = `log(${types.join(',')})`
      table.set(selectorOf(text), types)
      const legacy = text.replace(/\b(u?int)256\b/g, '$1')
      if (legacy !== text) table.set(selectorOf(legacy), types)
    }
  }
  return table.get(selector)
}

export function selectorOf(signature: string): number {
  const hash = keccak256(new TextEncoder().encode(signature))
  return ((hash[0] << 24) | (hash[1] << 16) | (hash[2] << 8) | hash[3]) >>> 0
}
