import { createEVM } from '@ethereumjs/evm'

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

/** Codes whose analysis an EVM keeps (a dev chain calls a few contracts over and over). */
const KEPT_PER_EVM = 256

/** Per EVM opcode table (one per VM and hardfork), per code bytes: their analysis. */
const analyses = new WeakMap<object, Map<Uint8Array, Analysis>>()
let installed: Promise<void> | undefined

/**
 * Makes ethereumjs' interpreter analyse each code once instead of on every call frame that runs
 * it. The analysis (valid jump destinations, every PUSH value as a BigInt, the opcode of every
 * byte) was ~7% of an eth_call of an ERC-20 balanceOf in Chromium (bench:profile -- call), and
 * ERC-20 transfers redo it for the same token code in every transaction.
 *
 * It depends only on the code and the EVM's opcode table, and the interpreter only reads it, so
 * it is kept by the code's bytes (the same object while the state holds that code: code is read
 * from the node store or the state manager's cache, never rebuilt) and by the opcode table (an EVM
 * makes a new one when its hardfork changes). @ethereumjs/evm does not export its Interpreter:
 * its prototype is reached, once per module, through the interpreter a throwaway EVM's run of
 * STOP returns. Until then, and if that fails, code is analysed as ethereumjs always does.
 */
export function keepCodeAnalyses(): Promise<void> {
  installed ??= install().catch(() => {})
  return installed
}

async function install(): Promise<void> {
  const evm = await createEVM()
  const result = await evm.runCode({ code: Uint8Array.of(0x00), gasLimit: 100n })
  const prototype = Object.getPrototypeOf(result.runState?.interpreter ?? {}) as AnalysingInterpreter
  const analyse = prototype._getValidJumpDestinations
  // Another @ethereumjs/evm than the one this was written for: it analyses as it always did.
  if (typeof analyse !== 'function') return
  prototype._getValidJumpDestinations = function (this: AnalysingInterpreter, code: Uint8Array): Analysis {
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
}
