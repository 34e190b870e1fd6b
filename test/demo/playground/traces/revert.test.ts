import { encodeErrorResult, parseAbi } from 'viem'
import { describe, expect, test } from 'vitest'
import { decodeRevert, revertText } from '../../../../demo/playground/traces/revert.ts'

const abi = parseAbi(['error Error(string)', 'error Panic(uint256)', 'error Unauthorized(address caller)'])

describe('revert reasons', () => {
  test('Error(string)', () => {
    const data = encodeErrorResult({ abi, errorName: 'Error', args: ['nope'] })
    expect(decodeRevert(data)).toEqual({ kind: 'error', message: 'nope' })
    expect(revertText(decodeRevert(data))).toBe('Error("nope")')
  })

  test('Panic(uint256) with its meaning', () => {
    const data = encodeErrorResult({ abi, errorName: 'Panic', args: [0x11n] })
    expect(decodeRevert(data)).toEqual({ kind: 'panic', code: 0x11n, meaning: 'arithmetic overflow or underflow outside an unchecked block' })
    expect(revertText(decodeRevert(encodeErrorResult({ abi, errorName: 'Panic', args: [0x99n] })))).toBe('Panic(0x99): unknown panic code')
  })

  test('a custom error shows its selector raw', () => {
    const data = encodeErrorResult({ abi, errorName: 'Unauthorized', args: ['0x0000000000000000000000000000000000000001'] })
    expect(decodeRevert(data)).toEqual({ kind: 'custom', selector: data.slice(0, 10), data })
    expect(revertText(decodeRevert(data))).toBe(`custom error ${data.slice(0, 10)} (32 bytes of arguments)`)
  })

  test('no data, short data, and a malformed Error', () => {
    expect(decodeRevert('0x')).toEqual({ kind: 'empty' })
    expect(decodeRevert(null)).toEqual({ kind: 'empty' })
    expect(decodeRevert('0x1234')).toEqual({ kind: 'raw', data: '0x1234' })
    expect(decodeRevert('0x08c379a0ff')).toEqual({ kind: 'raw', data: '0x08c379a0ff' })
  })
})
