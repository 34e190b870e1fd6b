/**
 * The page's side of the Solidity compiler: starts the worker on first use (never before: it
 * fetches 9 MB), reports its loading progress, and turns solc's standard JSON output into
 * deployable contracts and diagnostics with line:column positions.
 */
import type { Abi } from 'viem'
import type { WorkerReply, WorkerRequest } from './compilerProtocol.ts'
import { gatherSources } from './imports.ts'
import { DEFAULT_SOLC_VERSION, type SolcVersion } from './solcVersions.ts'

/**
 * The node runs the Prague hardfork; every shipped solc knows 'prague' (0.8.28's default is
 * 'cancun', 0.8.37's 'osaka'), and compiling for it changes no opcode the examples use.
 */
export const EVM_VERSION = 'prague'

export type CompilerState =
  | { state: 'idle' }
  | { state: 'loading'; phase: 'download' | 'initialising'; loaded: number; total?: number }
  | { state: 'ready'; version: string }
  | { state: 'failed'; message: string }

export interface Diagnostic {
  severity: 'error' | 'warning' | 'info'
  /** solc's kind: ParserError, TypeError, DeclarationError, Warning… */
  kind: string
  message: string
  /** 1-based, in the source text; undefined for messages about no place (e.g. JSON errors). */
  line?: number
  column?: number
  /** Character offsets in the source (solc's byte offsets converted), to select the spot. */
  start?: number
  end?: number
  /** solc's own rendering, with the source line and a caret. */
  formatted: string
}

export interface CompiledContract {
  name: string
  abi: Abi
  /** 0x-prefixed creation bytecode; '0x' for interfaces and abstract contracts. */
  bytecode: `0x${string}`
}

export interface CompileResult {
  contracts: CompiledContract[]
  diagnostics: Diagnostic[]
  ms: number
}

export interface SolcOutput {
  errors?: { severity: string; type: string; message: string; formattedMessage?: string; sourceLocation?: { file: string; start: number; end: number } }[]
  contracts?: Record<string, Record<string, { abi: Abi; evm?: { bytecode?: { object?: string } } }>>
}

type Listener = (state: CompilerState) => void

export class SolidityCompiler {
  private worker: Worker | undefined
  private nextId = 0
  private readonly pending = new Map<number, { resolve: (reply: { output: string; ms: number }) => void; reject: (error: Error) => void }>()
  private readonly listeners = new Set<Listener>()
  private current: CompilerState = { state: 'idle' }

  constructor(private chosen: SolcVersion = DEFAULT_SOLC_VERSION) {}

  get state(): CompilerState {
    return this.current
  }

  /** The solc version this compiler runs (or will, once loaded). */
  get version(): SolcVersion {
    return this.chosen
  }

  /**
   * Switches to another shipped version: the running worker (which holds one version for its
   * life) is ended, compilations waiting on it fail, and the next request starts a worker for
   * `version`. Loading is left to `load`/`compile`, so the choice alone fetches nothing.
   */
  use(version: SolcVersion): void {
    if (version === this.chosen) return
    this.chosen = version
    this.worker?.terminate()
    this.worker = undefined
    for (const { reject } of this.pending.values()) reject(new Error(`the compiler was switched to solc ${version}; compile again`))
    this.pending.clear()
    this.setState({ state: 'idle' })
  }

  onState(listener: Listener): () => void {
    this.listeners.add(listener)
    listener(this.current)
    return () => this.listeners.delete(listener)
  }

  /** Starts loading the compiler (idempotent), so the first compile does not wait for it. */
  load(): void {
    if (this.current.state === 'idle' || this.current.state === 'failed') this.post({ type: 'load', version: this.chosen })
  }

  /**
   * Compiles one source file with what it imports (`readOwn`: the user's files, by name);
   * resolves with solc's contracts and diagnostics.
   */
  async compile(fileName: string, source: string, readOwn?: (path: string) => string | undefined): Promise<CompileResult> {
    const sources = await gatherSources(fileName, source, readLibrary, readOwn)
    const id = ++this.nextId
    const reply = new Promise<{ output: string; ms: number }>((resolve, reject) => this.pending.set(id, { resolve, reject }))
    this.post({ type: 'compile', version: this.chosen, id, input: JSON.stringify(standardInput(sources)) })
    const { output, ms } = await reply
    return { ...readSolcOutput(JSON.parse(output) as SolcOutput, fileName, source), ms }
  }

  private post(request: WorkerRequest): void {
    if (!this.worker) {
      this.worker = new Worker(new URL('./solc.worker.ts', import.meta.url), { type: 'module', name: 'solc' })
      this.worker.addEventListener('message', (event: MessageEvent<WorkerReply>) => this.receive(event.data))
      this.worker.addEventListener('error', (event) => this.fail(`the compiler worker failed: ${event.message || 'could not start it'}`))
    }
    if (this.current.state === 'idle' || this.current.state === 'failed') this.setState({ state: 'loading', phase: 'download', loaded: 0 })
    this.worker.postMessage(request)
  }

  private receive(reply: WorkerReply): void {
    switch (reply.type) {
      case 'progress':
        this.setState({ state: 'loading', phase: reply.phase, loaded: reply.loaded, total: reply.total })
        break
      case 'ready':
        this.setState({ state: 'ready', version: reply.version })
        break
      case 'compiled':
        this.pending.get(reply.id)?.resolve(reply)
        this.pending.delete(reply.id)
        break
      case 'failed':
        this.fail(reply.message)
        break
    }
  }

  private fail(message: string): void {
    this.setState({ state: 'failed', message })
    for (const { reject } of this.pending.values()) reject(new Error(message))
    this.pending.clear()
  }

  private setState(state: CompilerState): void {
    this.current = state
    for (const listener of this.listeners) listener(state)
  }
}

/** A library file the site ships (demo/vite/librariesPlugin.ts), from the network or the offline cache. */
async function readLibrary(path: string): Promise<string> {
  const response = await fetch(`/libraries/${path}`)
  if (!response.ok) throw new Error(`HTTP ${response.status}`)
  return response.text()
}

/** solc's standard JSON input: ABI and creation bytecode, optimised, for Prague. */
export function standardInput(sources: Record<string, { content: string }>) {
  return {
    language: 'Solidity',
    sources,
    settings: {
      evmVersion: EVM_VERSION,
      optimizer: { enabled: true, runs: 200 },
      outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object'] } },
    },
  }
}

/** solc's standard JSON output as contracts and diagnostics (positions in the editor's characters). */
export function readSolcOutput(output: SolcOutput, fileName: string, source: string): Omit<CompileResult, 'ms'> {
  const offsets = byteToCharOffsets(source)
  const diagnostics = (output.errors ?? []).map((error): Diagnostic => {
    const severity = error.severity === 'error' ? 'error' : error.severity === 'warning' ? 'warning' : 'info'
    const base = { severity, kind: error.type, message: error.message, formatted: error.formattedMessage ?? error.message } as const
    const location = error.sourceLocation
    if (!location || location.file !== fileName || location.start < 0) return base
    const start = offsets(location.start)
    const end = offsets(Math.max(location.start, location.end))
    const before = source.slice(0, start)
    const line = before.split('\n').length
    const column = start - before.lastIndexOf('\n')
    return { ...base, line, column, start, end }
  })
  // Errors first, then warnings, each in source order.
  const rank = { error: 0, warning: 1, info: 2 }
  diagnostics.sort((a, b) => rank[a.severity] - rank[b.severity] || (a.start ?? -1) - (b.start ?? -1))
  const contracts = Object.entries(output.contracts?.[fileName] ?? {}).map(([name, contract]) => ({
    name,
    abi: contract.abi,
    bytecode: `0x${contract.evm?.bytecode?.object ?? ''}` as const,
  }))
  return { contracts, diagnostics }
}

/** solc's source locations are UTF-8 byte offsets; the editor counts UTF-16 characters. */
function byteToCharOffsets(source: string): (byteOffset: number) => number {
  const encoder = new TextEncoder()
  // Only non-ASCII text needs the walk; for ASCII bytes and characters coincide.
  // eslint-disable-next-line no-control-regex
  if (/^[\x00-\x7f]*$/.test(source)) return (byteOffset) => Math.min(byteOffset, source.length)
  return (byteOffset) => {
    let bytes = 0
    let index = 0
    for (const character of source) {
      if (bytes >= byteOffset) break
      bytes += encoder.encode(character).length
      index += character.length
    }
    return index
  }
}

/** A contract with code to deploy (interfaces and abstract contracts have none). */
export const isDeployable = (contract: CompiledContract): boolean => contract.bytecode.length > 2

/**
 * The contract a source is "about": the deployable one declared last (helpers and interfaces
 * usually come first).
 */
export function mainContract(contracts: CompiledContract[], source: string): CompiledContract | undefined {
  const declaredAt = (name: string) => source.search(new RegExp(`\\bcontract\\s+${name}\\b`))
  return contracts.filter(isDeployable).sort((a, b) => declaredAt(b.name) - declaredAt(a.name))[0]
}
