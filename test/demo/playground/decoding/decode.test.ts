import { getAddress, encodeErrorResult, type Hex, encodeEventTopics, encodeAbiParameters, encodeFunctionData, parseAbi } from 'viem'
import { describe, expect, test } from 'vitest'
import { decodeCall, decodeError, decodeEvent } from '../../../../demo/playground/decoding/decode.ts'
import { WELL_KNOWN } from '../../../../demo/playground/decoding/wellKnown.ts'

// Decoded addresses come checksummed.
const A = getAddress('0x00000000000000000000000000000000000000aa')
const B = getAddress('0x00000000000000000000000000000000000000bb')
const counter = { name: 'Counter', abi: parseAbi(['function set(uint256 value)', 'error TooLarge(uint256 value, uint256 max)', 'event Set(address indexed by, uint256 value)']) }
const known = [...WELL_KNOWN]

describe('well-known signatures, without an ABI', () => {
  test('ERC-20 transfer call data', () => {
    const data = encodeFunctionData({ abi: parseAbi(['function transfer(address,uint256)']), args: [B, 5n] })
    expect(decodeCall(known, data)).toEqual({ name: 'transfer', text: `transfer(to: ${B}, value: 5)`, source: 'ERC-20' })
  })

  test('Transfer events of ERC-20 and ERC-721, which share topic 0', () => {
    const erc20 = parseAbi(['event Transfer(address indexed from, address indexed to, uint256 value)'])
    const erc721 = parseAbi(['event Transfer(address indexed from, address indexed to, uint256 indexed tokenId)'])
    const fungible = { topics: encodeEventTopics({ abi: erc20, args: { from: A, to: B } }) as Hex[], data: encodeAbiParameters([{ type: 'uint256' }], [7n]) }
    const nft = { topics: encodeEventTopics({ abi: erc721, args: { from: A, to: B, tokenId: 9n } }) as Hex[], data: '0x' as const }
    expect(decodeEvent(known, fungible)?.text).toBe(`Transfer(from: ${A}, to: ${B}, value: 7)`)
    expect(decodeEvent(known, nft)).toEqual({ name: 'Transfer', text: `Transfer(from: ${A}, to: ${B}, tokenId: 9)`, source: 'ERC-721' })
  })

  test('Error(string) and Panic(uint256)', () => {
    expect(decodeError(known, encodeErrorResult({ abi: parseAbi(['error Error(string)']), errorName: 'Error', args: ['nope'] }))?.text).toEqual('Error(message: nope)')
    expect(decodeError(known, encodeErrorResult({ abi: parseAbi(['error Panic(uint256)']), errorName: 'Panic', args: [0x11n] }))?.text).toBe('Panic(reason: 17)')
  })
})

describe('with a compiled ABI', () => {
  test('a function, an event and a custom error with their arguments', () => {
    const abis = [counter, ...known]
    expect(decodeCall(abis, encodeFunctionData({ abi: counter.abi, functionName: 'set', args: [42n] }))?.text).toBe('set(value: 42)')
    const log = { topics: encodeEventTopics({ abi: counter.abi, eventName: 'Set', args: { by: A } }) as Hex[], data: encodeAbiParameters([{ type: 'uint256' }], [3n]) }
    expect(decodeEvent(abis, log)?.text).toBe(`Set(by: ${A}, value: 3)`)
    expect(decodeError(abis, encodeErrorResult({ abi: counter.abi, errorName: 'TooLarge', args: [5n, 1n] }))).toEqual({ name: 'TooLarge', text: 'TooLarge(value: 5, max: 1)', source: 'Counter' })
  })

  test('what no ABI knows stays undecoded', () => {
    expect(decodeCall(known, '0x12345678')).toBeUndefined()
    expect(decodeError(known, '0xdeadbeef00')).toBeUndefined()
    expect(decodeEvent(known, { topics: [`0x${'11'.repeat(32)}`], data: '0x' })).toBeUndefined()
    expect(decodeCall(known, '0x')).toBeUndefined()
  })
})
