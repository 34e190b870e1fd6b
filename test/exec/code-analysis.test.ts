import { createEVM, type EVM } from '@ethereumjs/evm'
import { hexToBytes } from '@ethereumjs/util'
import { beforeAll, expect, test } from 'vitest'
import { keepCodeAnalyses } from '../../src/core/exec/codeAnalysis.ts'

// PUSH1 4, JUMP, INVALID, JUMPDEST, PUSH1 42, PUSH1 0, MSTORE, PUSH1 32, PUSH1 0, RETURN: returns 42.
const JUMPS = hexToBytes('0x600456fe5b602a60005260206000f3')
// PUSH1 3, JUMP, PUSH1 0x5b: the only 0x5b is PUSH data, not a jump destination.
const INTO_PUSH_DATA = hexToBytes('0x600356605b')

const run = (evm: EVM, code: Uint8Array) => evm.runCode({ code, gasLimit: 100_000n })

beforeAll(() => keepCodeAnalyses())

test('an EVM analyses the same code bytes once and answers alike every time', async () => {
  const evm = await createEVM()
  const first = await run(evm, JUMPS)
  const second = await run(evm, JUMPS)
  expect(second.returnValue).toEqual(first.returnValue)
  expect(BigInt(`0x${Buffer.from(second.returnValue).toString('hex')}`)).toBe(42n)
  expect(second.runState!.validJumps).toBe(first.runState!.validJumps)
})

test('other code, equal bytes elsewhere, or another EVM get their own analysis', async () => {
  const evm = await createEVM()
  const other = await createEVM()
  const kept = (await run(evm, JUMPS)).runState!.validJumps
  const copy = await run(evm, JUMPS.slice())
  expect(copy.runState!.validJumps).not.toBe(kept)
  expect(copy.runState!.validJumps).toEqual(kept)
  expect((await run(other, JUMPS)).runState!.validJumps).not.toBe(kept)
  expect((await run(evm, INTO_PUSH_DATA)).runState!.validJumps).not.toBe(kept)
})

test('a jump into PUSH data fails on every run, not only the first', async () => {
  const evm = await createEVM()
  for (let i = 0; i < 3; i++) expect((await run(evm, INTO_PUSH_DATA)).exceptionError?.error).toMatch(/^invalid JUMP/)
})

test('past 256 codes the least recently used is analysed again; a code in use stays', async () => {
  const evm = await createEVM()
  const hot = (await run(evm, JUMPS)).runState!.validJumps
  for (let i = 0; i < 300; i++) {
    // Distinct code bytes, each with a jump, so each is analysed; the hot code is used meanwhile.
    await run(evm, Uint8Array.of(...JUMPS, i & 0xff))
    if (i % 100 === 0) expect((await run(evm, JUMPS)).runState!.validJumps).toBe(hot)
  }
  expect((await run(evm, JUMPS)).runState!.validJumps).toBe(hot)
  const cold = INTO_PUSH_DATA.slice()
  const before = (await run(evm, cold)).runState!.validJumps
  for (let i = 0; i < 300; i++) await run(evm, Uint8Array.of(...JUMPS, i & 0xff))
  expect((await run(evm, cold)).runState!.validJumps).not.toBe(before)
})
