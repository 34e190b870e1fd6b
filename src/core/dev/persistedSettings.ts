import type { Common } from '@ethereumjs/common'
import { createAddressFromString, hexToBytes, type PrefixedHexString } from '@ethereumjs/util'
import { bytesToHex } from '../hexText.ts'
import type { MiningConfig } from '../config.ts'
import type { ChainSnapshot } from '../chain/snapshots.ts'
import type { PoolEntry } from '../chain/txPool.ts'
import { ChainStoreError } from '../errors.ts'
import type { Node } from '../node.ts'
import { decodePoolEntry, encodePoolEntry } from '../store/poolCodec.ts'

/**
 * The node's run-time settings as the store keeps them (docs/architecture.md, "Storage and
 * durability"): the mining mode, the clock (offset, next timestamp, interval), the next block's
 * settings, the impersonations and the snapshots. Stored as JSON text (bigints as decimal
 * strings), in the commit after any of them changed; a dev-node method answers once its change
 * is stored, as a block is.
 */
interface StoredSettings {
  version: 1
  mining: MiningConfig
  clock: { offsetSeconds: string; nextOverride?: string; interval?: string }
  params: { coinbase: PrefixedHexString; gasLimit: string; nextBaseFee?: string; nextPrevRandao?: PrefixedHexString; minGasPrice: string }
  impersonation: { accounts: PrefixedHexString[]; auto: boolean }
  snapshots: { next: string; taken: [string, StoredSnapshot][] }
}

interface StoredSnapshot {
  head: string
  headHash: PrefixedHexString
  stateRoot: PrefixedHexString
  clock: { offsetSeconds: string; nextOverride?: string; interval?: string; atMs: number }
  params: { coinbase: PrefixedHexString; nextBaseFee?: string; nextPrevRandao?: PrefixedHexString }
  /** The pool it held: arrival number and the entry's stored bytes (poolCodec.ts). */
  pool: [number, PrefixedHexString][]
}

const text = (value: bigint | undefined) => (value === undefined ? undefined : value.toString())
const big = (value: string | undefined) => (value === undefined ? undefined : BigInt(value))
const hex = (value: Uint8Array | undefined) => (value === undefined ? undefined : bytesToHex(value))
const hexBytes = (value: PrefixedHexString | undefined) => (value === undefined ? undefined : hexToBytes(value))

/**
 * Encodes a node's settings; the snapshots (which may hold whole pools) are encoded again only
 * when they changed, so encoding on every commit stays cheap.
 */
export class SettingsEncoder {
  private snapshotsVersion = -1
  private snapshotsJson = ''
  private lastJson = ''
  private lastBytes = new Uint8Array()

  constructor(private readonly node: Node) {}

  encode(): Uint8Array {
    const { node } = this
    if (node.snapshots.version !== this.snapshotsVersion) {
      const { taken, next } = node.snapshots.all()
      this.snapshotsJson = JSON.stringify({ next: next.toString(), taken: taken.map(([id, snapshot]) => [id.toString(), storeSnapshot(snapshot)]) })
      this.snapshotsVersion = node.snapshots.version
    }
    const settings: Omit<StoredSettings, 'snapshots'> = {
      version: 1,
      mining: node.mining.current,
      clock: { offsetSeconds: node.clock.offsetSeconds.toString(), nextOverride: text(node.clock.nextOverride), interval: text(node.clock.interval) },
      params: {
        coinbase: node.params.coinbase.toString(),
        gasLimit: node.params.gasLimit.toString(),
        nextBaseFee: text(node.params.nextBaseFee),
        nextPrevRandao: hex(node.params.nextPrevRandao),
        minGasPrice: node.params.minGasPrice.toString(),
      },
      impersonation: { accounts: node.impersonation.list(), auto: node.impersonation.auto },
    }
    const json = `${JSON.stringify(settings).slice(0, -1)},"snapshots":${this.snapshotsJson}}`
    // Asked for by every commit (ChainWriter), mostly unchanged: the same bytes, not new ones.
    if (json !== this.lastJson) {
      this.lastJson = json
      this.lastBytes = utf8.encode(json)
    }
    return this.lastBytes
  }
}

const utf8 = new TextEncoder()

function storeSnapshot(snapshot: ChainSnapshot): StoredSnapshot {
  return {
    head: snapshot.head.toString(),
    headHash: snapshot.headHash,
    stateRoot: bytesToHex(snapshot.stateRoot),
    clock: {
      offsetSeconds: snapshot.clock.offsetSeconds.toString(),
      nextOverride: text(snapshot.clock.nextOverride),
      interval: text(snapshot.clock.interval),
      atMs: snapshot.clock.atMs,
    },
    params: { coinbase: snapshot.params.coinbase.toString(), nextBaseFee: text(snapshot.params.nextBaseFee), nextPrevRandao: hex(snapshot.params.nextPrevRandao) },
    pool: snapshot.pool.map((entry) => [entry.seq, bytesToHex(encodePoolEntry(entry))]),
  }
}

/** What a restart keeps of the options it was started with: those given explicitly win. */
export interface ExplicitOptions {
  mining: boolean
  blockGasLimit: boolean
}

/** Puts stored settings back on a node that was just restored from its store. */
export function restoreSettings(node: Node, bytes: Uint8Array, common: Common, explicit: ExplicitOptions): void {
  applySettings(node, parseSettings(bytes), common, explicit)
}

/**
 * Puts the node's settings back as they were (`bytes`: their encoding then), after the store
 * refused a commit carrying changed ones: a refused change must not stay in memory, as a refused
 * state edit does not (docs/architecture.md, "A refused commit rolls back").
 */
export function rollBackSettings(node: Node, bytes: Uint8Array): void {
  applySettings(node, parseSettings(bytes), node.common, { mining: false, blockGasLimit: false })
}

function parseSettings(bytes: Uint8Array): StoredSettings {
  let settings: StoredSettings
  try {
    settings = JSON.parse(new TextDecoder().decode(bytes)) as StoredSettings
  } catch (error) {
    throw new ChainStoreError('the stored node settings are damaged (not JSON)', { cause: error })
  }
  if (settings.version !== 1) {
    throw new ChainStoreError(`the stored node settings were written by a newer pagenode (settings ${settings.version}): upgrade pagenode or use another store`)
  }
  return settings
}

function applySettings(node: Node, settings: StoredSettings, common: Common, explicit: ExplicitOptions): void {
  // The same mode is left running: switching would restart an interval's timer.
  if (!explicit.mining && JSON.stringify(settings.mining) !== JSON.stringify(node.mining.current)) node.mining.restore(settings.mining)
  node.clock.offsetSeconds = BigInt(settings.clock.offsetSeconds)
  node.clock.nextOverride = big(settings.clock.nextOverride)
  node.clock.interval = big(settings.clock.interval)
  node.params.coinbase = createAddressFromString(settings.params.coinbase)
  if (!explicit.blockGasLimit) node.params.gasLimit = BigInt(settings.params.gasLimit)
  node.params.nextBaseFee = big(settings.params.nextBaseFee)
  node.params.nextPrevRandao = hexBytes(settings.params.nextPrevRandao)
  node.params.minGasPrice = BigInt(settings.params.minGasPrice)
  for (const address of node.impersonation.list()) if (!settings.impersonation.accounts.includes(address)) node.impersonation.stop(address)
  for (const address of settings.impersonation.accounts) node.impersonation.start(address)
  node.impersonation.auto = settings.impersonation.auto
  node.snapshots.load(
    settings.snapshots.taken.map(([id, snapshot]) => [BigInt(id), restoreSnapshot(snapshot, common)]),
    BigInt(settings.snapshots.next),
  )
}

function restoreSnapshot(stored: StoredSnapshot, common: Common): ChainSnapshot {
  return {
    head: BigInt(stored.head),
    headHash: stored.headHash,
    stateRoot: hexToBytes(stored.stateRoot),
    clock: {
      offsetSeconds: BigInt(stored.clock.offsetSeconds),
      nextOverride: big(stored.clock.nextOverride),
      interval: big(stored.clock.interval),
      atMs: stored.clock.atMs,
    },
    params: {
      coinbase: createAddressFromString(stored.params.coinbase),
      nextBaseFee: big(stored.params.nextBaseFee),
      nextPrevRandao: hexBytes(stored.params.nextPrevRandao),
    },
    pool: stored.pool.map(([seq, bytes]): PoolEntry => ({ ...decodePoolEntry(hexToBytes(bytes), common), seq })),
  }
}
