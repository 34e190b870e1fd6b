import { RLP } from '@ethereumjs/rlp'
import { bigIntToBytes, bigIntToHex, bytesToBigInt, bytesToUnprefixedHex, hexToBytes, KECCAK256_NULL, KECCAK256_RLP, setLengthLeft, unpadBytes } from '@ethereumjs/util'
import { keccak_256 } from '@noble/hashes/sha3.js'
import { ChainStoreError, UpstreamError } from '../errors.ts'
import { bytesToHex } from '../hexText.ts'
import { ForkHistory } from './history.ts'
import type { Upstream } from './upstream.ts'

/**
 * What a forked chain forked: where, at which block, and the chain id the node took. The local
 * chain continues the upstream's numbering: its first block stands for the fork block (its number,
 * hash and timestamp), and the history up to it is the upstream's (fork/history.ts).
 */
export interface ForkPoint {
  url: string
  blockNumber: bigint
  chainId: number
  /** The fork block's hash: the parent hash of the first block mined here. */
  blockHash: `0x${string}`
  timestamp: bigint
  /** The fork block's base fee, which a fork's blocks keep unless a gas price is given (as anvil does). */
  baseFee?: bigint
  /**
   * A ZKsync upstream's L1 batch of the fork block: the local batches continue after it, and the
   * batches up to it are the upstream's. Undefined for an upstream without batches.
   */
  l1Batch?: bigint
}

/** An account as the upstream holds it at the fork block. */
export interface ForkAccount {
  nonce: bigint
  balance: bigint
  codeHash: Uint8Array
  /** Whether its storage may hold anything: worth asking the upstream for a slot. */
  hasStorage: boolean
}

/**
 * The upstream's state at the fork block, as far as the node has needed it: accounts, code by
 * hash, storage slots. Every value is a fact of a past block that never changes, so once fetched
 * it is kept (in memory, and in the store: `drainNew` hands the new entries to the next commit)
 * and never asked for again; a restart reads them back and needs no upstream for them.
 *
 * The entries are opaque to the store, one map from key to bytes: `point` (JSON), `a<address>`
 * (an account: RLP of nonce, balance, code hash, has-storage; empty: no account), `c<code hash>`
 * (code), `s<address><slot>` (a slot's value, leading zeros stripped), `b<number>` (an upstream
 * block's hash), `h<call>` (an answer about the upstream's history: its JSON).
 */
export class ForkState {
  private readonly accounts = new Map<string, ForkAccount | null>()
  private readonly codes = new Map<string, Uint8Array>()
  private readonly slots = new Map<string, Uint8Array>()
  /** Upstream blocks' hashes, by number (BLOCKHASH below the fork block). */
  private readonly hashes = new Map<bigint, Uint8Array>()
  /** The upstream's answers about its history up to the fork block, by call (fork/history.ts), as JSON. */
  private readonly answers = new Map<string, string>()
  private readonly fetching = new Map<string, Promise<unknown>>()
  private fresh = new Map<string, Uint8Array>()
  /** Whether the upstream answers eth_getProof; unknown until it was asked once. */
  private proofs: boolean | undefined
  /** The upstream's history up to the fork block, as the node serves it. */
  readonly history = new ForkHistory(this)
  /** Called when something was fetched: the node stores it without waiting for a block. */
  onFetched: () => void = () => {}

  constructor(
    private forkPoint: ForkPoint,
    private client: Upstream,
    entries?: Iterable<[string, Uint8Array]>,
  ) {
    if (entries) for (const [key, value] of entries) this.restore(key, value)
    this.fresh.set('point', encodePoint(forkPoint))
  }

  /** The fork point a store holds, if it holds a fork. */
  static pointOf(entries: Iterable<[string, Uint8Array]> | undefined): ForkPoint | undefined {
    if (!entries) return undefined
    for (const [key, value] of entries) if (key === 'point') return decodePoint(value)
    return undefined
  }

  get point(): ForkPoint {
    return this.forkPoint
  }

  get upstream(): Upstream {
    return this.client
  }

  /** Fetches from another URL from now on (anvil_setRpcUrl): the same chain, another endpoint. */
  useUpstream(upstream: Upstream): void {
    this.client = upstream
    this.forkPoint = { ...this.forkPoint, url: upstream.url }
    this.fresh.set('point', encodePoint(this.forkPoint))
  }

  get blockTag(): string {
    return bigIntToHex(this.point.blockNumber)
  }

  /** Whether something fetched is not yet stored. */
  get changed(): boolean {
    return this.fresh.size > 0
  }

  /** The entries fetched since the last drain, for one store commit. */
  drainNew(): Map<string, Uint8Array> {
    const fresh = this.fresh
    this.fresh = new Map()
    return fresh
  }

  /** Gives back a drain whose commit failed: the next commit carries them. */
  restoreNew(entries: Map<string, Uint8Array>): void {
    for (const [key, value] of entries) if (!this.fresh.has(key)) this.fresh.set(key, value)
  }

  /** Everything known is new again: the store was wiped (anvil_reset onto the same fork). */
  rewriteAll(): void {
    this.fresh = new Map([['point', encodePoint(this.point)]])
    for (const [address, account] of this.accounts) this.fresh.set(`a${address}`, encodeAccount(account))
    for (const [hash, code] of this.codes) this.fresh.set(`c${hash}`, code)
    for (const [key, value] of this.slots) this.fresh.set(`s${key}`, value)
    for (const [number, hash] of this.hashes) this.fresh.set(`b${number}`, hash)
    for (const [call, answer] of this.answers) this.fresh.set(`h${call}`, textEncoder.encode(answer))
  }

  /** The hash of the upstream's block `number` (below the fork block), for BLOCKHASH. */
  async blockHash(number: bigint): Promise<Uint8Array | undefined> {
    const known = this.hashes.get(number)
    if (known) return known
    return this.once(`b${number}`, async () => {
      const block = await this.upstream.request<{ hash?: string } | null>('eth_getBlockByNumber', [bigIntToHex(number), false])
      if (!block) return undefined
      const hash = hexToBytes(checkHex(block.hash, 'eth_getBlockByNumber', this.upstream.host))
      this.hashes.set(number, hash)
      this.keep(`b${number}`, hash)
      return hash
    })
  }

  /**
   * The upstream's answer to a call about its history up to the fork block (`call`: the method
   * and its params as JSON, which name blocks by number, never by tag): fetched once, kept like
   * the state. A fetch that fails keeps nothing: the next call asks again.
   */
  async answer(call: string, fetch: () => Promise<unknown>): Promise<unknown> {
    const known = this.answers.get(call)
    if (known !== undefined) return JSON.parse(known)
    return this.once(`h${call}`, async () => {
      const answer = await fetch()
      const json = JSON.stringify(answer ?? null)
      this.answers.set(call, json)
      this.keep(`h${call}`, textEncoder.encode(json))
      return answer ?? null
    })
  }

  /** Whether the account at `address` was fetched already (or restored). */
  knowsAccount(address: Uint8Array): boolean {
    return this.accounts.has(bytesToUnprefixedHex(address))
  }

  /** The account at the fork block, undefined where there is none. */
  async account(address: Uint8Array): Promise<ForkAccount | undefined> {
    const hex = bytesToUnprefixedHex(address)
    const known = this.accounts.get(hex)
    if (known !== undefined) return known ?? undefined
    return (await this.once(`a${hex}`, () => this.fetchAccount(hex))) ?? undefined
  }

  /** A storage slot's value at the fork block (leading zeros stripped: empty for zero). */
  async storage(address: Uint8Array, slot: Uint8Array): Promise<Uint8Array> {
    const key = `${bytesToUnprefixedHex(address)}${bytesToUnprefixedHex(slot)}`
    const known = this.slots.get(key)
    if (known !== undefined) return known
    return this.once(`s${key}`, async () => {
      const word = await this.upstream.request<string>('eth_getStorageAt', [`0x${key.slice(0, 40)}`, `0x${key.slice(40)}`, this.blockTag])
      const value = unpadBytes(hexToBytes(checkHex(word, 'eth_getStorageAt', this.upstream.host)))
      this.keep(`s${key}`, value)
      this.slots.set(key, value)
      return value
    })
  }

  /** The code of `address` (whose code hash at the fork block is `codeHash`). */
  async code(address: Uint8Array, codeHash: Uint8Array): Promise<Uint8Array> {
    const hash = bytesToUnprefixedHex(codeHash)
    const known = this.codes.get(hash)
    if (known !== undefined) return known
    return this.once(`c${hash}`, async () => {
      const code = hexToBytes(checkHex(await this.upstream.request<string>('eth_getCode', [bytesToHex(address), this.blockTag]), 'eth_getCode', this.upstream.host))
      this.keepCode(code)
      return code
    })
  }

  /** Shares one fetch between concurrent askers of the same item. */
  private once<T>(key: string, fetchIt: () => Promise<T>): Promise<T> {
    const running = this.fetching.get(key)
    if (running) return running as Promise<T>
    const started = fetchIt().finally(() => this.fetching.delete(key))
    this.fetching.set(key, started)
    return started
  }

  /**
   * One round trip: eth_getProof (nonce, balance, code hash, storage root) with eth_getCode in the
   * same batch; an upstream without eth_getProof is asked for the balance and nonce instead.
   */
  private async fetchAccount(hex: string): Promise<ForkAccount | null> {
    const address = `0x${hex}`
    const host = this.upstream.host
    const code = this.upstream.request<string>('eth_getCode', [address, this.blockTag])
    let account: ForkAccount | null
    let proof: { nonce: string; balance: string; codeHash: string; storageHash: string } | undefined
    if (this.proofs !== false) {
      try {
        proof = await this.upstream.request('eth_getProof', [address, [], this.blockTag])
        this.proofs = true
      } catch (error) {
        // A network failure fails the read; an upstream that refuses the method is asked otherwise.
        if (!(error instanceof UpstreamError) || !isRefusal(error) || this.proofs === true) {
          code.catch(() => {})
          throw error
        }
        this.proofs = false
      }
    }
    const codeBytes = hexToBytes(checkHex(await code, 'eth_getCode', host))
    if (proof) {
      account = {
        nonce: BigInt(proof.nonce),
        balance: BigInt(proof.balance),
        codeHash: codeBytes.length > 0 ? keccak_256(codeBytes) : KECCAK256_NULL,
        hasStorage: proof.storageHash !== bytesToHex(KECCAK256_RLP),
      }
    } else {
      const [balance, nonce] = await Promise.all([
        this.upstream.request<string>('eth_getBalance', [address, this.blockTag]),
        this.upstream.request<string>('eth_getTransactionCount', [address, this.blockTag]),
      ])
      account = { nonce: BigInt(nonce), balance: BigInt(balance), codeHash: codeBytes.length > 0 ? keccak_256(codeBytes) : KECCAK256_NULL, hasStorage: codeBytes.length > 0 }
    }
    if (account.nonce === 0n && account.balance === 0n && codeBytes.length === 0 && !account.hasStorage) account = null
    if (codeBytes.length > 0) this.keepCode(codeBytes)
    this.accounts.set(hex, account)
    this.keep(`a${hex}`, encodeAccount(account))
    return account
  }

  private keepCode(code: Uint8Array): void {
    const hash = bytesToHex(keccak_256(code)).slice(2)
    if (this.codes.has(hash)) return
    this.codes.set(hash, code)
    this.keep(`c${hash}`, code)
  }

  private keep(key: string, value: Uint8Array): void {
    this.fresh.set(key, value)
    this.onFetched()
  }

  private restore(key: string, value: Uint8Array): void {
    const kind = key[0]
    if (kind === 'a') this.accounts.set(key.slice(1), decodeAccount(value))
    else if (kind === 'c') this.codes.set(key.slice(1), value)
    else if (kind === 's') this.slots.set(key.slice(1), value)
    else if (kind === 'b') this.hashes.set(BigInt(key.slice(1)), value)
    else if (kind === 'h') this.answers.set(key.slice(1), new TextDecoder().decode(value))
  }
}

const textEncoder = new TextEncoder()

/** An upstream's JSON-RPC error for a method it does not serve (as opposed to a failure). */
function isRefusal(error: UpstreamError): boolean {
  const code = (error.cause as { code?: number } | undefined)?.code
  return code === -32601 || code === -32602 || code === -32600 || code === -32000 || code === -32004
}

function checkHex(value: unknown, method: string, host: string): `0x${string}` {
  if (typeof value !== 'string' || !/^0x[0-9a-fA-F]*$/.test(value)) {
    throw new UpstreamError(host, `the fork's upstream ${host} answered ${method} with ${JSON.stringify(value)}, not hex data`)
  }
  return (value.length % 2 === 0 ? value : `0x0${value.slice(2)}`) as `0x${string}`
}

function encodeAccount(account: ForkAccount | null): Uint8Array {
  if (!account) return new Uint8Array(0)
  return RLP.encode([bigIntToBytes(account.nonce), bigIntToBytes(account.balance), account.codeHash, account.hasStorage ? Uint8Array.of(1) : new Uint8Array(0)])
}

function decodeAccount(bytes: Uint8Array): ForkAccount | null {
  if (bytes.length === 0) return null
  const [nonce, balance, codeHash, hasStorage] = RLP.decode(bytes) as Uint8Array[]
  return { nonce: bytesToBigInt(nonce), balance: bytesToBigInt(balance), codeHash: setLengthLeft(codeHash, 32), hasStorage: hasStorage.length > 0 }
}

export function encodePoint(point: ForkPoint): Uint8Array {
  const { url, blockNumber, chainId, blockHash, timestamp, baseFee, l1Batch } = point
  return new TextEncoder().encode(
    JSON.stringify({ url, blockNumber: blockNumber.toString(), chainId, blockHash, timestamp: timestamp.toString(), baseFee: baseFee?.toString(), l1Batch: l1Batch?.toString() }),
  )
}

function decodePoint(bytes: Uint8Array): ForkPoint {
  const stored = JSON.parse(new TextDecoder().decode(bytes)) as Record<string, string | number | undefined>
  // A fork stored before the local chain continued the upstream's numbering has no fork block hash.
  if (typeof stored.blockHash !== 'string') {
    throw new ChainStoreError('the stored fork was written by an earlier pagenode whose forks started at block 0: fork again on another store (or wipe this one)')
  }
  const { url, blockNumber, chainId, blockHash, timestamp, baseFee, l1Batch } = stored as Record<string, string> & { chainId: number }
  return {
    url,
    blockNumber: BigInt(blockNumber),
    chainId,
    blockHash: blockHash as `0x${string}`,
    timestamp: BigInt(timestamp),
    baseFee: baseFee === undefined ? undefined : BigInt(baseFee),
    l1Batch: l1Batch === undefined ? undefined : BigInt(l1Batch),
  }
}
