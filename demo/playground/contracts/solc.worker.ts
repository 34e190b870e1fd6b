/**
 * The Solidity compiler in a worker of its own: soljson.js (solc's 9 MB emscripten build, the
 * WebAssembly inlined) is fetched with progress, evaluated here, and called through the two C
 * functions solc-js's wrapper uses for 0.8.x: `solidity_version` and `solidity_compile` (standard
 * JSON in, standard JSON out). The wrapper itself is not bundled: it needs Node's modules.
 *
 * Protocol: the page posts `{ type: 'compile', id, input }` (input = standard JSON text); the
 * worker answers `progress` while loading, `ready` with the version once, then `compiled` or
 * `failed` for each request, matched by id. Loading starts on the first message, of the version
 * it names; a worker runs that one version for its life (the page starts another for another).
 */
import soljson0828Url from 'solc/soljson.js?url'
import soljson0837Url from 'solc-0.8.37/soljson.js?url'
import type { WorkerReply, WorkerRequest } from './compilerProtocol.ts'
import type { SolcVersion } from './solcVersions.ts'

/** Each shipped version's soljson.js, an asset of the build: only the one asked for is fetched. */
const SOLJSON_URLS: Record<SolcVersion, string> = { '0.8.28': soljson0828Url, '0.8.37': soljson0837Url }

interface Emscripten {
  cwrap(name: string, returns: 'string' | null, args: string[]): (...args: unknown[]) => unknown
  onRuntimeInitialized?: () => void
  calledRun?: boolean
}

type Compile = (input: string) => string

const post = (reply: WorkerReply): void => self.postMessage(reply)

let compiler: Promise<Compile> | undefined

async function fetchWithProgress(url: string): Promise<string> {
  const response = await fetch(url)
  if (!response.ok || !response.body) throw new Error(`could not load the compiler: HTTP ${response.status} for ${url}`)
  // Content-Length is the encoded size: with compression it is less than what we read, so it
  // only bounds the progress bar, never what is accepted.
  const total = Number(response.headers.get('content-length') ?? 0) || undefined
  const reader = response.body.getReader()
  const chunks: Uint8Array[] = []
  let loaded = 0
  let reported = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    chunks.push(value)
    loaded += value.byteLength
    // A message per ~256 KB: enough for a smooth bar without flooding the page.
    if (loaded - reported > 256 * 1024) {
      reported = loaded
      post({ type: 'progress', phase: 'download', loaded, total })
    }
  }
  post({ type: 'progress', phase: 'initialising', loaded, total })
  return new TextDecoder().decode(await new Blob(chunks as BlobPart[]).arrayBuffer())
}

async function loadCompiler(shipped: SolcVersion): Promise<Compile> {
  const url = SOLJSON_URLS[shipped]
  if (!url) throw new Error(`solc ${String(shipped)} is not shipped with the playground`)
  const source = await fetchWithProgress(url)
  // soljson.js is a classic script that declares `var Module`: an indirect eval runs it in the
  // worker's global scope as importScripts would (which module workers do not have). It
  // compiles its inlined WebAssembly synchronously, which workers are allowed to do.
  ;(0, eval)(source)
  const module = (self as unknown as { Module?: Emscripten }).Module
  if (!module) throw new Error('soljson.js did not define Module')
  if (!module.calledRun) await new Promise<void>((resolve) => (module.onRuntimeInitialized = resolve))
  const version = module.cwrap('solidity_version', 'string', [])() as string
  // 0.6+: input, import callback (0: none, imports are refused), callback context.
  const solidityCompile = module.cwrap('solidity_compile', 'string', ['string', 'number', 'number'])
  // Frees everything the last compilation allocated (the wrapper does the same).
  const reset = module.cwrap('solidity_reset', null, [])
  post({ type: 'ready', version })
  return (input) => {
    try {
      return solidityCompile(input, 0, 0) as string
    } finally {
      reset()
    }
  }
}

self.addEventListener('message', (event: MessageEvent<WorkerRequest>) => {
  const request = event.data
  compiler ??= loadCompiler(request.version).catch((error: unknown) => {
    compiler = undefined // the next request tries again (e.g. back online)
    throw error
  })
  compiler.then(
    (compile) => {
      if (request.type !== 'compile') return
      const started = performance.now()
      post({ type: 'compiled', id: request.id, output: compile(request.input), ms: performance.now() - started })
    },
    (error: unknown) => post({ type: 'failed', id: request.type === 'compile' ? request.id : undefined, message: error instanceof Error ? error.message : String(error) }),
  )
})
