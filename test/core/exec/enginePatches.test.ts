import { paramsBlock } from '@ethereumjs/block'
import { Common, type ParamsDict } from '@ethereumjs/common'
import { createEVM, paramsEVM, type EVM } from '@ethereumjs/evm'
import { paramsTx } from '@ethereumjs/tx'
import { hexToBytes } from '@ethereumjs/util'
import { paramsVM } from '@ethereumjs/vm'
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest'
import { createChainCommon } from '../../../src/core/exec/chainCommon.ts'
import { keepCodeAnalyses, keepHardforkList, patchInterpreter, skipRepeatedParamUpdates } from '../../../src/core/exec/enginePatches.ts'
import { createNode, type Node } from '../../../src/core/node.ts'

// PUSH1 4, JUMP, INVALID, JUMPDEST, PUSH1 42, PUSH1 0, MSTORE, PUSH1 32, PUSH1 0, RETURN: returns 42.
const JUMPS = hexToBytes('0x600456fe5b602a60005260206000f3')
// PUSH1 3, JUMP, PUSH1 0x5b: the only 0x5b is PUSH data, not a jump destination.
const INTO_PUSH_DATA = hexToBytes('0x600356605b')

const run = (evm: Pick<EVM, 'runCode'>, code: Uint8Array) => evm.runCode({ code, gasLimit: 100_000n })
/** An EVM of the kind pagenode makes: its analyses are kept. */
const ownEvm = async () => {
  const evm = await createEVM()
  await keepCodeAnalyses(evm)
  return evm
}

// Every patch applies here: a warning means one was left out.
const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
let node: Node
beforeAll(async () => {
  node = await createNode()
})
afterAll(() => node.close())

describe('the code-analysis cache (pagenode EVMs analyse each code once)', () => {
  test("applies to the node's own EVMs: the miner's and a sandbox's analyse a code once", async () => {
    const sandbox = await node.sandbox(node.chain.head)
    for (const evm of [node.state.vm.evm, sandbox.vm.evm]) {
      const first = await run(evm, JUMPS)
      const second = await run(evm, JUMPS)
      expect(second.returnValue[31]).toBe(42)
      expect(second.runState!.validJumps).toBe(first.runState!.validJumps)
    }
    expect(warn).not.toHaveBeenCalled()
  })

  test('an EVM made elsewhere in the process (createEVM) analyses as ethereumjs does: every run anew', async () => {
    const foreign = await createEVM()
    const first = await run(foreign, JUMPS)
    const second = await run(foreign, JUMPS)
    expect(second.returnValue).toEqual(first.returnValue)
    expect(second.runState!.validJumps).not.toBe(first.runState!.validJumps)
    expect(second.runState!.validJumps).toEqual(first.runState!.validJumps)
    expect(second.runState!.cachedPushes).not.toBe(first.runState!.cachedPushes)
  })

  test('an EVM analyses the same code bytes once and answers alike every time', async () => {
    const evm = await ownEvm()
    const first = await run(evm, JUMPS)
    const second = await run(evm, JUMPS)
    expect(second.returnValue).toEqual(first.returnValue)
    expect(BigInt(`0x${Buffer.from(second.returnValue).toString('hex')}`)).toBe(42n)
    expect(second.runState!.validJumps).toBe(first.runState!.validJumps)
  })

  test('other code, equal bytes elsewhere, or another EVM get their own analysis', async () => {
    const evm = await ownEvm()
    const other = await ownEvm()
    const kept = (await run(evm, JUMPS)).runState!.validJumps
    const copy = await run(evm, JUMPS.slice())
    expect(copy.runState!.validJumps).not.toBe(kept)
    expect(copy.runState!.validJumps).toEqual(kept)
    expect((await run(other, JUMPS)).runState!.validJumps).not.toBe(kept)
    expect((await run(evm, INTO_PUSH_DATA)).runState!.validJumps).not.toBe(kept)
  })

  test('a jump into PUSH data fails on every run, not only the first', async () => {
    const evm = await ownEvm()
    for (let i = 0; i < 3; i++) expect((await run(evm, INTO_PUSH_DATA)).exceptionError?.error).toMatch(/^invalid JUMP/)
  })

  test('past 256 codes the least recently used is analysed again; a code in use stays', async () => {
    const evm = await ownEvm()
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

  test('an interpreter of another shape is left as it is, with the reason', () => {
    const evm = { _opcodeMap: [] }
    const withPrototype = (prototype: object, own: object = { _evm: evm }) => Object.assign(Object.create(prototype), own)
    const noMethod = {}
    expect(patchInterpreter(withPrototype(noMethod), evm)).toMatch(/no _getValidJumpDestinations/)
    expect(noMethod).toEqual({})
    const otherShape = { _getValidJumpDestinations: (code: Uint8Array) => ({ jumps: [...code] }) }
    const original = otherShape._getValidJumpDestinations
    expect(patchInterpreter(withPrototype(otherShape), evm)).toMatch(/not \{jumps, pushes, opcodesCached\}/)
    expect(otherShape._getValidJumpDestinations).toBe(original)
    expect(patchInterpreter(withPrototype(otherShape, { _evm: {} }), evm)).toMatch(/_opcodeMap/)
    expect(patchInterpreter(undefined, evm)).toMatch(/no interpreter/)
  })
})

describe('the parameter-cache hand-over (a Common skips repeated updateParams)', () => {
  type Internals = { _paramsCache: Record<string, unknown> }
  const cacheOf = (common: Common) => (common as unknown as Internals)._paramsCache

  test("applies to the node's Common and its copies: a repeated update hands over the cache", () => {
    const common = node.common
    expect(Object.hasOwn(common, 'updateParams')).toBe(true)
    expect(common.updateParams).not.toBe(Common.prototype.updateParams)
    const first = common.copy()
    const second = common.copy()
    expect(second.updateParams).toBe(common.updateParams)
    first.updateParams(paramsTx)
    second.updateParams(paramsTx)
    expect(cacheOf(second)).toBe(cacheOf(first))
    expect(second.param('txGas')).toBe(21000n)
    expect(warn).not.toHaveBeenCalled()
  })

  test('other Commons update as ethereumjs does, the pure-JS chain Common (benchmark floors) included', () => {
    for (const common of [createChainCommon(260, { crypto: 'default' }), new Common({ chain: node.common['_chainParams'] })]) {
      expect(Object.hasOwn(common, 'updateParams')).toBe(false)
      const first = common.copy()
      const second = common.copy()
      first.updateParams(paramsTx)
      second.updateParams(paramsTx)
      expect(cacheOf(second)).not.toBe(cacheOf(first))
      expect(cacheOf(second)).toEqual(cacheOf(first))
    }
  })

  test('every copy ends with the cache a plain Common computes, whatever the order of updates', () => {
    const fast = createChainCommon(260)
    const plain = createChainCommon(260, { crypto: 'default' })
    for (const common of [fast, plain]) {
      common.updateParams(paramsVM)
      common.updateParams(paramsEVM)
    }
    // The vm and evm sets disagree on EIP-2935's historyServeWindow: the last one merged wins, as in ethereumjs.
    const sequences: ParamsDict[][] = [[paramsTx], [paramsBlock], [paramsTx, paramsBlock], [paramsBlock, paramsTx], [paramsTx, paramsTx], [paramsVM], [paramsTx], [paramsEVM], [paramsBlock, paramsVM, paramsTx]]
    for (let round = 0; round < 3; round++) {
      for (const sequence of sequences) {
        const fastCopy = fast.copy()
        const plainCopy = plain.copy()
        for (const set of sequence) {
          fastCopy.updateParams(set)
          plainCopy.updateParams(set)
        }
        expect(cacheOf(fastCopy)).toEqual(cacheOf(plainCopy))
        expect(fastCopy.param('txGas')).toBe(21000n)
      }
    }
    // Another hardfork on a copy: its own cache, built in full.
    const cancun = fast.copy()
    cancun.setHardfork('cancun')
    cancun.updateParams(paramsTx)
    const plainCancun = plain.copy()
    plainCancun.setHardfork('cancun')
    plainCancun.updateParams(paramsTx)
    expect(cacheOf(cancun)).toEqual(cacheOf(plainCancun))
  })

  test('a Common of another shape is left as it is, and the reason is said once', () => {
    const common = createChainCommon(260, { crypto: 'default' })
    delete (common as unknown as Partial<Internals>)._paramsCache
    skipRepeatedParamUpdates(common)
    skipRepeatedParamUpdates(common)
    expect(Object.hasOwn(common, 'updateParams')).toBe(false)
    expect(warn).toHaveBeenCalledTimes(1)
    expect(warn.mock.calls[0][0]).toMatch(/^pagenode: ethereumjs is not as the parameter-cache hand-over expects \(a Common has no _params and _paramsCache objects\); written against ethereumjs 10\.1\.3/)
  })
})

describe('the hardfork list kept (a Common makes its hardfork list once)', () => {
  test("applies to the node's Common and its copies: one list, as ethereumjs makes it", () => {
    warn.mockClear() // the previous describe's last test made one warning on purpose
    const common = node.common
    expect(Object.hasOwn(common, 'hardforks')).toBe(true)
    const copy = common.copy()
    expect(copy.hardforks()).toBe(common.hardforks())
    const plain = createChainCommon(260, { crypto: 'default' })
    expect(Object.hasOwn(plain, 'hardforks')).toBe(false)
    expect(plain.hardforks()).not.toBe(plain.hardforks())
    expect(common.hardforks()).toEqual(plain.hardforks())
    // What reads it answers alike, on another hardfork too.
    for (const hardfork of ['cancun', 'prague']) {
      copy.setHardfork(hardfork)
      plain.setHardfork(hardfork)
      expect(copy.hardforkBlock('london')).toBe(plain.hardforkBlock('london'))
      expect(copy.gteHardfork('cancun')).toBe(plain.gteHardfork('cancun'))
    }
    expect(warn).not.toHaveBeenCalled()
  })

  test('a Common of another shape is left as it is, and the reason is said once', () => {
    const common = createChainCommon(260, { crypto: 'default' })
    delete (common as unknown as { _chainParams?: unknown })._chainParams
    keepHardforkList(common)
    keepHardforkList(common)
    expect(Object.hasOwn(common, 'hardforks')).toBe(false)
    expect(warn).toHaveBeenCalledTimes(1)
    expect(warn.mock.calls[0][0]).toMatch(/^pagenode: ethereumjs is not as the hardfork list kept expects \(a Common has no _chainParams object\)/)
  })
})
