/// <reference lib="webworker" />
/**
 * The floors measured inside a worker, beside the node's own worker: a raw postMessage echo (no
 * Comlink, no node), an IndexedDB readwrite commit holding one tiny put, and a bare ethereumjs
 * runTx of the same signed transactions the node is sent.
 */
import { createTxFromRLP } from '@ethereumjs/tx'
import { hexToBytes, type PrefixedHexString } from '@ethereumjs/util'
import { createChainCommon } from '../../src/core/exec/chainCommon.ts'
import { fastCryptoStatus, loadFastCrypto } from '../../src/core/exec/fastCrypto.ts'
import { bareRunTx, CHAIN_ID, type FloorCrypto } from '../floors.ts'

export type FloorRequest =
  | { id: number; kind: 'echo' }
  | { id: number; kind: 'idb'; commits: number; durability: 'relaxed' | 'strict' }
  | { id: number; kind: 'runTx'; setup: string[]; raws: string[]; preRecovered: boolean; crypto: FloorCrypto }
  | { id: number; kind: 'crypto'; raws: string[] }

declare const self: DedicatedWorkerGlobalScope

self.onmessage = (event: MessageEvent<FloorRequest>) => {
  const request = event.data
  // The echo answers synchronously: a round trip to a worker of its own (a reference; the floor
  // is the node worker's ping, which wakes the same thread as the calls).
  if (request.kind === 'echo') return self.postMessage({ id: request.id })
  void answer(request).then(
    (result) => self.postMessage({ id: request.id, result }),
    (error: unknown) => self.postMessage({ id: request.id, error: String(error) }),
  )
}

async function answer(request: Exclude<FloorRequest, { kind: 'echo' }>): Promise<unknown> {
  if (request.kind === 'idb') return idbCommits(request.commits, request.durability)
  if (request.kind === 'crypto') return cryptoTimes(request.raws)
  return bareRunTx(request.setup, request.raws, { preRecovered: request.preRecovered, crypto: request.crypto })
}

/** Per-commit times (ms) of `commits` sequential readwrite transactions, each with one tiny put. */
async function idbCommits(commits: number, durability: 'relaxed' | 'strict'): Promise<number[]> {
  const name = `bench-floor-${crypto.randomUUID()}`
  const db = await new Promise<IDBDatabase>((resolve, reject) => {
    const open = indexedDB.open(name, 1)
    open.onupgradeneeded = () => open.result.createObjectStore('meta')
    open.onsuccess = () => resolve(open.result)
    open.onerror = () => reject(open.error)
  })
  const times: number[] = []
  for (let i = 0; i < commits; i++) {
    const start = performance.now()
    await new Promise<void>((resolve, reject) => {
      const tx = db.transaction('meta', 'readwrite', { durability })
      tx.objectStore('meta').put(i, 'head')
      tx.oncomplete = () => resolve()
      tx.onerror = () => reject(tx.error)
    })
    times.push(performance.now() - start)
  }
  db.close()
  indexedDB.deleteDatabase(name)
  return times
}

/** Which crypto answers in this worker, and ms per sender recovery with it and with ethereumjs' default. */
async function cryptoTimes(raws: string[]) {
  await loadFastCrypto()
  const perRecovery = (common: ReturnType<typeof createChainCommon>) => {
    const txs = raws.map((raw) => createTxFromRLP(hexToBytes(raw as PrefixedHexString), { common }))
    const start = performance.now()
    for (const tx of txs) tx.getSenderAddress()
    return (performance.now() - start) / txs.length
  }
  return { status: fastCryptoStatus(), node: perRecovery(createChainCommon(CHAIN_ID)), default: perRecovery(createChainCommon(CHAIN_ID, { crypto: 'default' })) }
}
