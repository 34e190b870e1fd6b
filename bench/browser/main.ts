/**
 * The Chromium harness page: the real pagenode client (startNode: node worker, Comlink provider,
 * service worker) beside the floors, driven by bench/browser.ts through `window.bench`. Timing
 * happens here, in the page, so Playwright's own round trips never count.
 */
import { startNode, type PageNode, type StartOptions } from '../../src/client/index.ts'
import type { FloorCrypto } from '../floors.ts'
import type { FloorRequest } from './floorWorker.ts'
import { growAndMeasure } from '../chainSizeWorkload.ts'

type Distribute<T> = T extends unknown ? Omit<T, 'id'> : never

const floorWorker = new Worker(new URL('./floorWorker.ts', import.meta.url), { type: 'module', name: 'floor' })
const pending = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>()
let nextId = 0
floorWorker.onmessage = (event: MessageEvent<{ id: number; result?: unknown; error?: string }>) => {
  const waiter = pending.get(event.data.id)
  pending.delete(event.data.id)
  if (event.data.error !== undefined) waiter?.reject(new Error(event.data.error))
  else waiter?.resolve(event.data.result)
}
function floor<T>(request: Distribute<FloorRequest>): Promise<T> {
  const id = nextId++
  return new Promise<T>((resolve, reject) => {
    pending.set(id, { resolve: resolve as (value: unknown) => void, reject })
    floorWorker.postMessage({ ...request, id })
  })
}

let node: PageNode | undefined
/** The chain-size bench's transactions, sent to the page in parts (`loadRaws`). */
const sizeRaws: string[] = []
const provider = () => {
  if (!node) throw new Error('no node started')
  return node.provider
}

/** Runs `work` once and adds its ms to `into`. */
async function timed(into: number[], work: () => Promise<unknown>): Promise<void> {
  const start = performance.now()
  await work()
  into.push(performance.now() - start)
}

async function sample(samples: number, work: () => Promise<unknown>): Promise<number[]> {
  for (let i = 0; i < Math.min(50, samples); i++) await work() // warm-up, untimed
  const times: number[] = []
  for (let i = 0; i < samples; i++) await timed(times, work)
  return times
}

/**
 * Times a floor and a workload alternately, one of each per iteration (which goes first alternates
 * too), after a warm-up of both: the two sets of samples see the same machine state, so their
 * ratio holds on a machine whose load moves either of them by 2× between two moments.
 */
async function paired(samples: number, floorWork: () => Promise<unknown>, work: () => Promise<unknown>): Promise<{ floor: number[]; work: number[] }> {
  for (let i = 0; i < Math.min(50, samples); i++) {
    await floorWork()
    await work()
  }
  const times = { floor: [] as number[], work: [] as number[] }
  for (let i = 0; i < samples; i++) {
    if (i % 2 === 0) {
      await timed(times.floor, floorWork)
      await timed(times.work, work)
    } else {
      await timed(times.work, work)
      await timed(times.floor, floorWork)
    }
  }
  return times
}

const rpcBody = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_blockNumber', params: [] })

/** One eth_blockNumber POST with `fetchIn` (the fetch of the page whose service worker answers it). */
async function postBlockNumber(fetchIn: typeof fetch, url: string): Promise<void> {
  const response = await fetchIn(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: rpcBody })
  const reply = (await response.json()) as { result?: string }
  if (typeof reply.result !== 'string') throw new Error(`${url}: ${JSON.stringify(reply)}`)
}

/**
 * The service-worker floor's page (/floor-sw/, under its own service worker) in a frame of this
 * page: its fetch is answered by the floor service worker, this page's by pagenode's, and both are
 * timed here, interleaved.
 */
let floorFrame: Promise<Window> | undefined
function floorSwWindow(): Promise<Window> {
  floorFrame ??= new Promise<Window>((resolve, reject) => {
    const frame = document.createElement('iframe')
    frame.src = '/floor-sw/'
    frame.onload = () => {
      const window = frame.contentWindow!
      void window.floorReady.then(() => resolve(window), reject)
    }
    document.body.append(frame)
  })
  return floorFrame
}

const send = (raw: string) => provider().request({ method: 'eth_sendRawTransaction', params: [raw] }) as Promise<string>

/** Sends every transaction keeping `inFlight` requests outstanding; ms until the last is answered. */
async function sendWindowed(raws: string[], inFlight: number): Promise<number> {
  const start = performance.now()
  let next = 0
  const lane = async () => {
    while (next < raws.length) await send(raws[next++])
  }
  await Promise.all(Array.from({ length: Math.min(inFlight, raws.length) }, lane))
  return performance.now() - start
}

const api = {
  cryptoTimes: (raws: string[]) =>
    floor<{ status: Record<string, string>; node: number; default: number }>({ kind: 'crypto', raws }),
  idbFloor: (commits: number, durability: 'relaxed' | 'strict') => floor<number[]>({ kind: 'idb', commits, durability }),
  runTxFloor: (setup: string[], raws: string[], preRecovered: boolean, crypto: FloorCrypto) =>
    floor<number>({ kind: 'runTx', setup, raws, preRecovered, crypto }),

  async start(options: StartOptions): Promise<number> {
    const begin = performance.now()
    node = await startNode(options)
    return performance.now() - begin
  },
  async stop(): Promise<void> {
    await node?.stop()
    node = undefined
  },
  /** The started node's role in this tab ('leader' runs the chain here), for diagnostics. */
  role: () => node?.role ?? 'none',
  request: (method: string, params: unknown[] = []) => provider().request({ method, params }),
  latency: (method: string, params: unknown[], samples: number) => sample(samples, () => provider().request({ method, params })),
  /**
   * A provider call against a ping of the node's own worker (answered before any node code),
   * interleaved: the same thread, so the same wake-up cost (see bench/README, Floors).
   */
  latencyVersusPing(method: string, params: unknown[], samples: number) {
    const running = node
    if (!running) throw new Error('no node started')
    return paired(samples, () => running.ping(), () => running.provider.request({ method, params }))
  },
  /** A provider call against a bare echo worker of its own, interleaved. */
  latencyVersusEcho: (method: string, params: unknown[], samples: number) =>
    paired(samples, () => floor({ kind: 'echo' }), () => provider().request({ method, params })),
  /** eth_blockNumber over HTTP through pagenode's service worker against the constant-answer floor's, interleaved. */
  async httpVersusFloor(samples: number): Promise<{ floor: number[]; work: number[] }> {
    if (!node) throw new Error('no node started')
    const url = `${node.baseUrls[0]}/`
    const floorWindow = await floorSwWindow()
    return paired(
      samples,
      () => postBlockNumber(floorWindow.fetch.bind(floorWindow), '/floor-sw/rpc'),
      () => postBlockNumber(fetch, url),
    )
  },
  sendOneByOne: (raws: string[]) => sendWindowed(raws, 1),
  sendInFlight: sendWindowed,
  /** Sends `raws` into the pool (manual mining), then mines them with evm_mine; ms and the block's size. */
  async sendThenMine(raws: string[], inFlight: number): Promise<{ ms: number; admitMs: number; transactions: number }> {
    const start = performance.now()
    const admitMs = await sendWindowed(raws, inFlight)
    await provider().request({ method: 'evm_mine', params: [] })
    const ms = performance.now() - start
    const block = (await provider().request({ method: 'eth_getBlockByNumber', params: ['latest', false] })) as { transactions: string[] }
    return { ms, admitMs, transactions: block.transactions.length }
  },

  /** Adds to the transactions the chain-size bench sends (`reset`: starts the list again). */
  loadRaws(chunk: string[], reset: boolean): number {
    if (reset) sizeRaws.length = 0
    for (const raw of chunk) sizeRaws.push(raw)
    return sizeRaws.length
  },
  /** Grows the chain to `size` blocks with those transactions and measures it there (bench/chainSizeWorkload.ts). */
  sizeStep: (size: number, tokenAddress: string, balanceOfCall: unknown[], from: string) =>
    growAndMeasure((method, params = []) => provider().request({ method, params }), sizeRaws, size, tokenAddress, balanceOfCall, from),

  /** Bytes of keys and values a chain's IndexedDB database holds, per object store. */
  dbBytes: storeSizes,
  deleteDb: (name: string) =>
    new Promise<void>((resolve, reject) => {
      const request = indexedDB.deleteDatabase(name)
      request.onsuccess = () => resolve()
      request.onerror = () => reject(request.error)
      request.onblocked = () => reject(new Error(`deleting ${name} is blocked`))
    }),
}

async function storeSizes(name: string): Promise<Record<string, number>> {
  const db = await new Promise<IDBDatabase>((resolve, reject) => {
    const open = indexedDB.open(name)
    open.onsuccess = () => resolve(open.result)
    open.onerror = () => reject(open.error)
  })
  const sizes: Record<string, number> = {}
  for (const store of db.objectStoreNames) {
    const tx = db.transaction(store, 'readonly')
    sizes[store] = await new Promise<number>((resolve, reject) => {
      let bytes = 0
      const cursor = tx.objectStore(store).openCursor()
      cursor.onsuccess = () => {
        const at = cursor.result
        if (!at) return resolve(bytes)
        bytes += sizeOf(at.key) + sizeOf(at.value)
        at.continue()
      }
      cursor.onerror = () => reject(cursor.error)
    })
  }
  db.close()
  return sizes
}

/** Payload bytes of a stored key or value: byte arrays as such, strings as IndexedDB keeps them (UTF-16), records field by field. */
function sizeOf(value: unknown): number {
  if (value instanceof Uint8Array) return value.byteLength
  if (typeof value === 'string') return value.length * 2
  if (typeof value === 'number' || typeof value === 'bigint') return 8
  // A deflated segment ({ deflated: bytes }) counts its bytes, not their JSON.
  if (value && typeof value === 'object') return Object.entries(value).reduce((sum, [key, field]) => sum + key.length * 2 + sizeOf(field), 0)
  return 8
}

export type BenchApi = typeof api

declare global {
  interface Window {
    bench: BenchApi
  }
}
window.bench = api
