import { AbiCoder, id } from 'ethers'
import { expect, test } from 'vitest'
import { decodeConsoleCall } from '../../../../src/core/exec/console/decode.ts'
import { consoleSignatures, consoleTypesOf, selectorOf } from '../../../../src/core/exec/console/signatures.ts'

const abi = AbiCoder.defaultAbiCoder()
const call = (signature: string, types: string[], values: unknown[]) => {
  const bytes = Buffer.from(id(signature).slice(2, 10) + abi.encode(types, values).slice(2), 'hex')
  return new Uint8Array(bytes)
}

test("the table holds every overload of console.sol's log: 375 argument lists, 221 more under the uint/int spelling", () => {
  const lists = consoleSignatures()
  expect(lists).toHaveLength(1 + 38 + 16 + 64 + 256)
  expect(new Set(lists.map((types) => types.join())).size).toBe(lists.length)
  const legacy = lists.filter((types) => types.some((type) => type === 'uint256' || type === 'int256'))
  expect(legacy).toHaveLength(221)
  for (const types of lists) {
    const text = `log(${types.join(',')})`
    // The selector is keccak's first four bytes, as ethers computes them.
    expect(selectorOf(text)).toBe(Number.parseInt(id(text).slice(2, 10), 16))
    expect(consoleTypesOf(selectorOf(text))).toEqual(types)
    const aliased = text.replace(/\b(u?int)256\b/g, '$1')
    expect(consoleTypesOf(selectorOf(aliased))).toEqual(types)
  }
})

test('arguments decode as Hardhat prints them: decimal numbers, true/false, lowercase hex, UTF-8', () => {
  const address = '0x000000000000000000636F6e736F6c652e6c6f67'
  expect(decodeConsoleCall(call('log(string,uint256,bool,address)', ['string', 'uint256', 'bool', 'address'], ['héllo ✓', 2n ** 256n - 1n, true, address]))).toEqual([
    'héllo ✓',
    (2n ** 256n - 1n).toString(),
    'true',
    address.toLowerCase(),
  ])
  expect(decodeConsoleCall(call('log(int256)', ['int256'], [-(2n ** 255n)]))).toEqual([(-(2n ** 255n)).toString()])
  expect(decodeConsoleCall(call('log(int)', ['int256'], [-1n]))).toEqual(['-1'])
  expect(decodeConsoleCall(call('log(uint,string)', ['uint256', 'string'], [7n, 'x']))).toEqual(['7', 'x'])
  expect(decodeConsoleCall(call('log(bytes)', ['bytes'], ['0xc0ffee']))).toEqual(['0xc0ffee'])
  expect(decodeConsoleCall(call('log(bytes3)', ['bytes3'], ['0xabcdef']))).toEqual(['0xabcdef'])
  expect(decodeConsoleCall(call('log(bool)', ['bool'], [false]))).toEqual(['false'])
  expect(decodeConsoleCall(call('log()', [], []))).toEqual([])
})

test('what is not a console call, or does not decode, is no line', () => {
  expect(decodeConsoleCall(call('transfer(address,uint256)', ['address', 'uint256'], ['0x' + '11'.repeat(20), 1n]))).toBeUndefined()
  expect(decodeConsoleCall(new Uint8Array([0x41, 0x30]))).toBeUndefined()
  const truncated = call('log(string)', ['string'], ['hello'])
  expect(decodeConsoleCall(truncated.subarray(0, truncated.length - 40))).toBeUndefined()
  const offsetPastEnd = call('log(string)', ['string'], ['hello'])
  offsetPastEnd[4 + 31] = 0xff
  expect(decodeConsoleCall(offsetPastEnd)).toBeUndefined()
})
