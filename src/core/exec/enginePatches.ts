import { Common, type ParamsDict } from '@ethereumjs/common'
import { createEVM } from '@ethereumjs/evm'

/**
 * Every change pagenode makes to ethereumjs' internals, in one place: what each changes, why (the
 * gain, measured) and what it expects of the engine. Written against @ethereumjs/evm and
 * @ethereumjs/common 10.1.3, which package.json pins exactly (test/dependencies.test.ts checks
 * that the runtime has that one copy).
 *
 * Neither package promises these internals, so each patch first checks that what it patches is
 * there with the shape it expects. If not, it leaves the engine as ethereumjs made it (slower,
 * with the same results) and says so once, with console.warn.
 * test/core/exec/enginePatches.test.ts fails when a patch stops applying.
 *
 * Subclasses that override protected members (exec/sandboxState.ts) are not patches: they change
 * only the objects pagenode makes from them.
 */
const ETHEREUMJS_VERSION = '10.1.3'

const warned = new Set<string>()

/** Says once per patch that it was left out, and why. */
function leaveUnpatched(patch: string, reason: string): void {
  if (warned.has(patch)) return
  warned.add(patch)
  console.warn(
    `pagenode: ethereumjs is not as ${patch} expects (${reason}); written against ethereumjs ${ETHEREUMJS_VERSION}, ` +
      'it is left out: the engine runs as ethereumjs made it, with the same results, more slowly',
  )
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null

// ---- 1. The interpreter analyses each code once per EVM ----

/** What ethereumjs' interpreter derives from code before running it: read, never written. */
interface Analysis {
  jumps: Uint8Array
  pushes: Record<number, bigint>
  opcodesCached: unknown[]
}

interface AnalysingInterpreter {
  _evm: { _opcodeMap: object }
  _getValidJumpDestinations(code: Uint8Array): Analysis
}

const CODE_ANALYSIS = 'the code-analysis cache'

/** Codes whose analysis an EVM keeps (a dev chain calls a few contracts over and over). */
const KEPT_PER_EVM = 256

/** pagenode's own EVMs: the only ones whose analyses are kept. */
const ownEvms = new WeakSet<object>()
/** Per EVM opcode table (one per EVM and hardfork), per code bytes: their analysis. */
const analyses = new WeakMap<object, Map<Uint8Array, Analysis>>()
let codeAnalysisInstalled: Promise<void> | undefined
/** Puts ethereumjs' own analysis back (when the interpreter turns out not to use the patched one). */
let restoreAnalysis: (() => void) | undefined

// PUSH1 4, JUMP, INVALID, JUMPDEST, PUSH1 42, PUSH1 0, MSTORE, PUSH1 32, PUSH1 0, RETURN: returns 42.
const PROBE_CODE = Uint8Array.of(0x60, 0x04, 0x56, 0xfe, 0x5b, 0x60, 0x2a, 0x60, 0x00, 0x52, 0x60, 0x20, 0x60, 0x00, 0xf3)

/**
 * Makes `evm`, one of pagenode's, analyse each code once instead of on every call frame that runs
 * it. Before a frame runs code with a jump, ethereumjs' interpreter (`Interpreter.run`) calls
 * `_getValidJumpDestinations(code)`, which walks the code for its valid jump destinations, every
 * PUSH value as a BigInt and the opcode of every byte. That was ~7% of an eth_call of an ERC-20
 * balanceOf in Chromium (bench:profile -- call), and ERC-20 transfers redo it for the same token
 * code in every transaction; keeping it took the Node eth_call balanceOf p50 from ~0.37 to
 * ~0.28 ms (alternated runs).
 *
 * The analysis depends only on the code and the EVM's opcode table, and the interpreter only
 * reads it, so it is kept by the code's bytes (the same object while the state holds that code:
 * code is read from the node store or the state manager's cache, never rebuilt) and by the opcode
 * table (an EVM makes a new one when its hardfork changes); the least recently used goes first.
 *
 * Why the prototype: @ethereumjs/evm does not export its Interpreter, and `EVM.runInterpreter`
 * makes a new one for every frame, so no instance can be reached before it runs. The method is
 * replaced on the Interpreter's prototype, reached once per process through the interpreter a
 * throwaway EVM's run of STOP returns. The replacement hands an EVM that is not pagenode's
 * (`createEVM()` called by anyone else in the process) straight to ethereumjs' own method, so
 * that EVM analyses as it always did; only EVMs passed here keep analyses. That costs one WeakSet
 * lookup per analysis.
 *
 * Expects (checked at install): the method on the interpreter's prototype, taking the code;
 * `interpreter._evm`, the EVM, with its opcode table at `_opcodeMap`; an analysis of the shape
 * above; and that `run` goes through the method (two runs of the same code on an EVM of ours
 * share one analysis). Until the install is done, or if it fails, code is analysed as ethereumjs
 * always does.
 */
export async function keepCodeAnalyses(evm: object): Promise<void> {
  ownEvms.add(evm)
  await (codeAnalysisInstalled ??= installCodeAnalysis())
}

async function installCodeAnalysis(): Promise<void> {
  try {
    const evm = await createEVM()
    const stop = await evm.runCode({ code: Uint8Array.of(0x00), gasLimit: 100n })
    const refused = patchInterpreter(stop.runState?.interpreter, evm) ?? (await checkInUse(evm))
    if (refused) leaveUnpatched(CODE_ANALYSIS, refused)
  } catch (error) {
    restoreAnalysis?.()
    leaveUnpatched(CODE_ANALYSIS, `installing it threw: ${error instanceof Error ? error.message : String(error)}`)
  }
}

/**
 * Replaces the analysis on `interpreter`'s prototype, once it is found as expected; otherwise
 * says why and changes nothing. (Exported for the tests, which give it interpreters of other
 * shapes.)
 */
export function patchInterpreter(interpreter: unknown, evm: unknown): string | undefined {
  if (!isObject(interpreter)) return 'a run returned no interpreter'
  const prototype = Object.getPrototypeOf(interpreter) as Partial<AnalysingInterpreter> | null
  const analyse = prototype?._getValidJumpDestinations
  if (typeof analyse !== 'function' || analyse.length !== 1) return 'the interpreter has no _getValidJumpDestinations(code)'
  if (interpreter._evm !== evm || !isObject(evm) || !isObject(evm._opcodeMap)) return "the interpreter's _evm._opcodeMap is not its EVM's opcode table"
  // PUSH1 0x5b, JUMPDEST: the only jump destination is at 2, the push's byte is data.
  const probe = analyse.call(interpreter, Uint8Array.of(0x60, 0x5b, 0x5b)) as Partial<Analysis> | undefined
  if (
    !(probe?.jumps instanceof Uint8Array) ||
    probe.jumps.length !== 3 ||
    probe.jumps[1] !== 0 ||
    probe.jumps[2] !== 1 ||
    !isObject(probe.pushes) ||
    probe.pushes[1] !== 0x5bn ||
    !Array.isArray(probe.opcodesCached) ||
    probe.opcodesCached.length !== 3
  ) {
    return 'an analysis is not {jumps, pushes, opcodesCached}'
  }
  prototype!._getValidJumpDestinations = function (this: AnalysingInterpreter, code: Uint8Array): Analysis {
    if (!ownEvms.has(this._evm)) return analyse.call(this, code)
    const table = this._evm._opcodeMap
    let kept = analyses.get(table)
    if (!kept) analyses.set(table, (kept = new Map()))
    let analysis = kept.get(code)
    if (analysis) {
      kept.delete(code) // the most recently used last: a deployment's init code never pushes out a token
    } else {
      analysis = analyse.call(this, code)
      if (kept.size >= KEPT_PER_EVM) kept.delete(kept.keys().next().value!)
    }
    kept.set(code, analysis)
    return analysis
  }
  restoreAnalysis = () => {
    prototype!._getValidJumpDestinations = analyse
  }
  return undefined
}

/** Whether the interpreter really goes through the patched method; undoes the patch if not. */
async function checkInUse(evm: Awaited<ReturnType<typeof createEVM>>): Promise<string | undefined> {
  ownEvms.add(evm)
  try {
    const first = await evm.runCode({ code: PROBE_CODE, gasLimit: 100_000n })
    const second = await evm.runCode({ code: PROBE_CODE, gasLimit: 100_000n })
    const jumps = first.runState?.validJumps
    if (jumps !== undefined && jumps === second.runState?.validJumps && second.returnValue[31] === 42) return undefined
  } finally {
    ownEvms.delete(evm)
  }
  restoreAnalysis?.()
  return 'the interpreter does not analyse code through _getValidJumpDestinations'
}

// ---- 2. A Common's repeated updateParams hands over the cache ----

const PARAM_UPDATES = 'the parameter-cache hand-over'

interface CommonInternals {
  _params: ParamsDict
  _paramsCache: object
}

/** Whether ethereumjs' Common still works as the hand-over expects: checked once per process. */
let commonChecked: string | undefined | null = null

/**
 * Every transaction, header and block ethereumjs builds copies its Common and calls
 * `updateParams` with its package's parameter set, which deep-copies the set by JSON and rebuilds
 * the whole parameter cache: 15% of a transfer's time in the node (profiled), twice per
 * transaction (decoding, then the block header). A copy shares its original's parameter sets
 * (`copy()` is shallow), so after the first time such a call usually changes nothing but the
 * caller's cache, which then comes out the same as the last one built from the same sets for the
 * same hardfork and EIPs: this hands that cache over instead (a cache is never changed once
 * built: each build makes a new object).
 *
 * A call whose values differ from the shared sets' (ethereumjs' vm and evm sets disagree on
 * EIP-2935's historyServeWindow, so the last one merged wins) runs in full, as before.
 *
 * Scoped to `common`: the override is an own property of this Common, which its copies inherit
 * (`copy()` copies own properties); `Common.prototype` is not touched, so other Commons in the
 * process update as ethereumjs does.
 *
 * Expects (checked here): `Common.prototype.updateParams(params)`; a Common's parameter sets at
 * `_params`, shared with its copies, and its cache at `_paramsCache`, which `updateParams`
 * replaces with a new object; `hardfork()` and `eips()`; copies that keep the override.
 */
export function skipRepeatedParamUpdates(common: Common): void {
  const refused = commonMismatch(common)
  if (refused) return leaveUnpatched(PARAM_UPDATES, refused)
  /** Bumped whenever a call changes the shared parameter sets. */
  let version = 0
  const latest = new Map<string, { cache: object; version: number }>()
  /** The version at which a package's set (a module constant) was last found merged. */
  const mergedAt = new WeakMap<ParamsDict, number>()
  const update = Common.prototype.updateParams
  common.updateParams = function (this: Common, params: ParamsDict): void {
    const self = this as unknown as CommonInternals
    const key = `${this.hardfork()}|${this.eips().join(',')}`
    if (mergedAt.get(params) === version || alreadyMerged(self._params, params)) {
      mergedAt.set(params, version)
      const built = latest.get(key)
      if (built?.version === version) {
        self._paramsCache = built.cache
        return
      }
    } else {
      version++
    }
    update.call(this, params)
    latest.set(key, { cache: self._paramsCache, version })
  }
  if (common.copy().updateParams !== common.updateParams) {
    delete (common as Partial<Common>).updateParams
    leaveUnpatched(PARAM_UPDATES, "Common.copy() does not keep a Common's own properties")
  }
}

function commonMismatch(common: Common): string | undefined {
  const self = common as unknown as Partial<CommonInternals>
  if (!isObject(self._params) || !isObject(self._paramsCache)) return 'a Common has no _params and _paramsCache objects'
  if (typeof common.hardfork !== 'function' || typeof common.eips !== 'function') return 'a Common has no hardfork() and eips()'
  if (commonChecked === null) commonChecked = checkCommon(common)
  return commonChecked
}

function checkCommon(common: Common): string | undefined {
  const update = Common.prototype.updateParams as unknown
  if (typeof update !== 'function' || update.length !== 1) return 'Common.prototype has no updateParams(params)'
  const copy = common.copy() as unknown as CommonInternals
  if (copy._params !== (common as unknown as CommonInternals)._params) return 'Common.copy() no longer shares the parameter sets'
  const before = copy._paramsCache
  update.call(copy, {})
  const after = copy._paramsCache
  if (after === before || !isObject(after) || Object.keys(after).length !== Object.keys(before).length) {
    return 'updateParams no longer builds a new parameter cache'
  }
  return undefined
}

/** Whether merging `params` into `shared` would change no value. */
function alreadyMerged(shared: ParamsDict, params: ParamsDict): boolean {
  for (const eip in params) {
    const have = shared[eip]
    if (have === undefined) return false
    const values = params[eip]
    for (const name in values) if (have[name] !== values[name]) return false
  }
  return true
}

// ---- 3. A Common makes its hardfork list once ----

const HARDFORK_LIST = 'the hardfork list kept'

type HardforkList = ReturnType<Common['hardforks']>

/**
 * `Common.hardforks()` builds a new list on every call when the chain has custom hardforks, as
 * the node's chain, made from a geth genesis, does (its blob schedule): a Set of the names, a
 * filter and a spread, ~0.6 µs a call. The engine asks for it some 13 times a transfer (every
 * header's `hardforkBlock`, every `gteHardfork` of a transaction's checks), where the list
 * never changes: it comes from the chain's parameters alone, which a Common's copies share and
 * nothing writes once the Common is made. This keeps the first list per parameter set; ethereumjs'
 * callers only read it.
 *
 * Scoped to `common` and its copies, as `skipRepeatedParamUpdates` is.
 *
 * Expects (checked here): `Common.prototype.hardforks()`; the chain's parameters at
 * `_chainParams`, shared with copies; a list of `{ name }` entries that two calls give alike.
 */
export function keepHardforkList(common: Common): void {
  const list = Common.prototype.hardforks as unknown
  const params = (common as unknown as { _chainParams?: unknown })._chainParams
  if (typeof list !== 'function' || list.length !== 0) return leaveUnpatched(HARDFORK_LIST, 'Common.prototype has no hardforks()')
  if (!isObject(params)) return leaveUnpatched(HARDFORK_LIST, 'a Common has no _chainParams object')
  const first = (list as () => HardforkList).call(common)
  const again = (list as () => HardforkList).call(common)
  if (!Array.isArray(first) || first.length !== again.length || first.some((hardfork, i) => hardfork?.name !== again[i]?.name)) {
    return leaveUnpatched(HARDFORK_LIST, 'hardforks() does not give one list of named hardforks')
  }
  const kept = new WeakMap<object, HardforkList>()
  common.hardforks = function (this: Common): HardforkList {
    const own = (this as unknown as { _chainParams: object })._chainParams
    let hardforks = kept.get(own)
    if (hardforks === undefined) {
      hardforks = (list as () => HardforkList).call(this)
      kept.set(own, hardforks)
    }
    return hardforks
  }
  if (common.copy().hardforks !== common.hardforks) {
    delete (common as Partial<Common>).hardforks
    leaveUnpatched(HARDFORK_LIST, "Common.copy() does not keep a Common's own properties")
  }
}
