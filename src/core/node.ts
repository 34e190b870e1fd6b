import { NonceQueue } from './wallet/nonceQueue.ts'
import type { Common } from '@ethereumjs/common'
import { Account, createAddressFromString, hexToBytes, type PrefixedHexString } from '@ethereumjs/util'
import { validateForAdmission } from './exec/bootloaderEntry.ts'
import { checkAdmission } from './chain/admission.ts'
import { BatchPolicy } from './chain/batches.ts'
import { BlockParams } from './chain/blockParams.ts'
import { Chain, type BlockRef } from './chain/chain.ts'
import { ChainWriter } from './chain/chainWriter.ts'
import { BlockClock } from './chain/clock.ts'
import { deriveDevAccounts, type DevAccount } from './chain/devAccounts.ts'
import { FilterRegistry } from './chain/filters.ts'
import { Impersonation } from './chain/impersonation.ts'
import { Miner } from './chain/miner.ts'
import { MiningMode } from './chain/miningMode.ts'
import { RecordArena } from './chain/recordArena.ts'
import { stateRootOf, type BlockRecord } from './chain/records.ts'
import { SnapshotRegistry } from './chain/snapshots.ts'
import { DecodedBlocks, RecentLogs, StoredBlock } from './chain/storedBlock.ts'
import { TxPool } from './chain/txPool.ts'
import { ChainStoreError, MethodNotFoundError, RpcError, ServerError, toRpcError, TransactionFailedError, TransactionRejectedError } from './errors.ts'
import { describeFailure } from './exec/transactionFailure.ts'
import { bytesToHex } from './hexText.ts'
import { resolveConfig, type NodeConfig, type ResolvedConfig } from './config.ts'
import { executionBlock, minedBlockContext } from './exec/blockProducer.ts'
import { createChainCommon } from './exec/chainCommon.ts'
import { fastCryptoSettled, loadFastCrypto } from './exec/fastCrypto.ts'
import { createGenesis } from './exec/genesis.ts'
import { decodeRawTransaction, type SignedTransaction } from './exec/rawTransaction.ts'
import { StateMachine, type Sandbox } from './exec/stateMachine.ts'
import { checkCreationBytecode } from './rollup/eraVmBytecode.ts'
import { handleJsonRpc, handleJsonRpcText, type JsonRpcResponse } from './rpc/envelope.ts'
import { methods } from './rpc/methods/index.ts'
import { decodeBlockRecord } from './store/blockCodec.ts'
import { decodePoolEntry } from './store/poolCodec.ts'
import { restoreSettings, rollBackSettings, SettingsEncoder } from './dev/persistedSettings.ts'
import { EphemeralStore } from './store/memoryStore.ts'
import { SCHEMA_VERSION, type OlderBlocks, type PersistedChain, type Store } from './store/store.ts'
import { TrieNodeStore } from './store/trieNodeStore.ts'
import { servedByTail } from './rpc/servedByTail.ts'
import type { ForkPoint, ForkState } from './fork/forkState.ts'

export interface RequestArguments {
  method: string
  params?: unknown
}

export interface NodeEvents {
  block: (block: BlockRecord) => void
  pendingTransaction: (hash: PrefixedHexString) => void
  /** Blocks dropped from the chain (evm_revert), lowest first: their logs are gone. */
  blocksRemoved: (blocks: BlockRecord[]) => void
  /** What console.log printed in a mined transaction or a call (pagenode.ts: ConsoleLogOutput). */
  consoleLog: (output: ConsoleOutput) => void
}

/** console.log output of one execution: a mined transaction's, or a call's (eth_call, …). */
export type ConsoleOutput =
  | { kind: 'transaction'; transactionHash: PrefixedHexString; blockNumber: bigint; lines: string[] }
  | { kind: 'call'; method: string; lines: string[] }

/**
 * The node: one chain, its pool, miner and filters, served through `request` (EIP-1193 style:
 * resolves the result or rejects with an RpcError) and through `handle`/`handleText` (JSON-RPC
 * envelopes, for HTTP-like transports).
 */
export class Node {
  private batchTimer: ReturnType<typeof setTimeout> | undefined
  private readonly listeners: { [K in keyof NodeEvents]: Set<NodeEvents[K]> } = {
    block: new Set(),
    pendingTransaction: new Set(),
    blocksRemoved: new Set(),
    consoleLog: new Set(),
  }
  private closed = false
  /** Until a restarted chain's older blocks are restored (`restoreOlderBlocks`). */
  private restoring: Promise<void> | undefined
  /** Starts that restore now rather than when due: a call waits for it. */
  private beginRestoring: (() => void) | undefined
  /** Those older blocks could not be read: nothing is mined (the miner's lock stays held). */
  private olderUnreadable = false

  readonly pool = new TxPool()
  /** eth_sendTransaction's nonce assignment, one send at a time per sender (wallet/nonceQueue.ts). */
  readonly nonces = new NonceQueue()
  readonly filters: FilterRegistry
  readonly miner: Miner
  readonly batches: BatchPolicy
  /** How blocks are produced now (the `mining` option at first; evm_setAutomine, evm_setIntervalMining). */
  readonly mining: MiningMode
  /** Coinbase, gas limit, base fee and price floor of the blocks to come. */
  readonly params: BlockParams
  readonly impersonation = new Impersonation()
  /** Whether requests are logged (the `logging` option; anvil_/hardhat_setLoggingEnabled). */
  loggingEnabled: boolean
  readonly snapshots = new SnapshotRegistry()

  constructor(
    readonly config: ResolvedConfig,
    readonly common: Common,
    readonly accounts: DevAccount[],
    readonly chain: Chain,
    readonly state: StateMachine,
    readonly clock: BlockClock,
    readonly store: Store,
    readonly writer: ChainWriter,
  ) {
    this.loggingEnabled = config.logging
    this.filters = new FilterRegistry(config.limits, config.now)
    this.batches = new BatchPolicy(config.batches, config.now)
    this.params = new BlockParams({ gasLimit: config.blockGasLimit, baseFee: config.gasPrice })
    this.miner = new Miner({
      state,
      chain,
      pool: this.pool,
      writer,
      clock,
      params: this.params,
      batches: this.batches,
      onBlock: (block) => {
        this.scheduleBatchSeal()
        this.emit('block', block)
        // Once the block is stored, as its transactions' receipts are answered.
        for (const tx of block.transactions) {
          if (tx.consoleLogs) this.emit('consoleLog', { kind: 'transaction', transactionHash: tx.hash, blockNumber: block.number, lines: tx.consoleLogs })
        }
      },
      requeueLostTransactions: () => !this.mining.automine,
    })
    writer.pool = this.pool
    const settings = new SettingsEncoder(this)
    writer.settings = () => settings.encode()
    writer.rollBackSettings = (bytes) => rollBackSettings(this, bytes)
    this.scheduleBatchSeal()
    this.mining = new MiningMode(config.mining, () => this.miner.mine())
    writer.keepSettings()
  }

  /**
   * Arms a timer for the open batch's age limit, so a batch seals (and `finalized` moves) on an
   * idle chain too. Re-armed after every block and every attempt.
   */
  scheduleBatchSeal(): void {
    clearTimeout(this.batchTimer)
    const open = this.chain.openBatch
    const due = open ? this.batches.dueInMs(open) : undefined
    if (due === undefined || this.closed) return
    this.batchTimer = setTimeout(() => {
      // A failed store commit is rolled back by the writer; the next attempt comes with the timer.
      this.miner
        .sealDueBatch()
        .catch(() => {})
        .finally(() => this.scheduleBatchSeal())
    }, due)
  }

  get chainId(): bigint {
    return BigInt(this.config.chainId)
  }

  /** The fork under this chain's state, if it is a fork (fork/forkState.ts). */
  get fork(): ForkState | undefined {
    return this.state.fork
  }

  /**
   * Makes `fork` the chain's fork (at start, and anvil_reset): the state reads through to it, each
   * commit carries what it fetched, and what a read fetched (an eth_call commits nothing) is
   * stored soon after on its own.
   */
  useFork(fork: ForkState | undefined): void {
    this.state.setFork(fork)
    this.writer.fork = fork
    if (!fork) return
    let scheduled = false
    fork.onFetched = () => {
      if (scheduled || this.closed) return
      scheduled = true
      setTimeout(() => {
        scheduled = false
        if (this.closed) return
        // Under the miner's lock: never between a reset's wipe and its new genesis. A refused
        // commit is the writer's to roll back; the entries stay for the next commit.
        this.miner.exclusive(() => this.writer.persist()).catch(() => {})
      })
    }
  }

  async request({ method, params }: RequestArguments): Promise<unknown> {
    if (this.closed) throw new ServerError('the node is closed')
    const spec = Object.hasOwn(methods, method) ? methods[method] : undefined
    if (!spec) throw new MethodNotFoundError(method)
    if (this.restoring && !servedByTail(this.chain, method, params)) await this.olderBlocks()
    // A fork's history up to its fork block is the upstream's (fork/history.ts).
    const history = this.fork?.history
    return this.run(method, params, () => (history ? history.answer(this, method, params, (local) => spec.call(this, local)) : spec.call(this, params)))
  }

  /** Resolves once a restarted chain's older blocks are restored, starting their read now if it was not due yet. */
  async olderBlocks(): Promise<void> {
    this.beginRestoring?.()
    await this.restoring
  }

  /**
   * Restores the older blocks of a chain whose store handed the last ones only (a long chain's
   * warm start: issue 21), after the first calls. Meanwhile only the calls those last blocks can
   * answer run (rpc/servedByTail.ts), and the miner mines on them if it can (chain.mineable),
   * else waits; the other calls wait, and fail with the store's error should the older blocks be
   * unreadable.
   */
  restoreOlderBlocks(read: () => Promise<OlderBlocks>, restore: (older: OlderBlocks) => void): void {
    // A chain whose last blocks can take the next one mines meanwhile: the miner waits only while
    // the chain is rebuilt with them (chain.mineable).
    const minesMeanwhile = this.chain.mineable
    const locked = minesMeanwhile ? Promise.resolve() : this.miner.lock.acquire()
    // Not at once: reading and indexing tens of thousands of blocks would delay the first calls
    // at the head (the bench's first state read after a warm start); a call that needs them
    // starts it at once.
    let begin!: () => void
    const due = new Promise<void>((resolve) => (begin = resolve))
    const timer = setTimeout(begin, RESTORE_OLDER_AFTER_MS)
    this.beginRestoring = () => {
      clearTimeout(timer)
      begin()
    }
    const restoring = (async () => {
      await locked
      let held = !minesMeanwhile
      try {
        await due
        // A node closed meanwhile needs none of it.
        const older = this.closed ? undefined : await read()
        if (!held) {
          await this.miner.lock.acquire()
          held = true
        }
        if (older && !this.closed) restore(older)
        this.miner.lock.release()
      } catch (error) {
        // The miner's lock stays held (taken once its block is done, if it was mining): a store
        // that lost older blocks is not mined on, as a chain without any batch could not be.
        if (!held) void this.miner.lock.acquire()
        this.olderUnreadable = true
        throw error instanceof RpcError ? error : new ChainStoreError(`the stored chain's older blocks could not be read: ${error instanceof Error ? error.message : String(error)}`, { cause: error })
      } finally {
        this.beginRestoring = undefined
      }
    })()
    this.restoring = restoring
    restoring.then(
      () => {
        if (this.restoring === restoring) this.restoring = undefined
      },
      (error: RpcError) => this.config.onInternalError(error, { method: 'restoring the stored chain', params: [] }),
    )
  }

  /**
   * Runs the code of the call `method`, rejecting only with an RpcError: EIP-1193 callers see
   * what an HTTP client sees, always a code, never a bare Error. A typed error passes as it is;
   * anything else is a bug in pagenode, which becomes an InternalError naming the method, caused
   * by the original (toRpcError), and is reported here, once, with the method and params
   * (`onInternalError`). Every call into the node's code comes through here (request, so the
   * JSON-RPC envelope too, and the worker's subscriptions): no other layer converts errors.
   */
  async run<T>(method: string, params: unknown, call: () => T | Promise<T>): Promise<T> {
    try {
      return await call()
    } catch (error) {
      if (error instanceof RpcError) throw error
      const internal = toRpcError(error, method)
      try {
        this.config.onInternalError(internal, { method, params })
      } catch {
        // A logger that throws must not change the answer.
      }
      throw internal
    }
  }

  handle(body: unknown, pathMethod?: string): Promise<JsonRpcResponse | JsonRpcResponse[] | undefined> {
    return handleJsonRpc(body, (method, params) => this.request({ method, params }), {
      limits: this.config.limits,
      pathMethod,
    })
  }

  handleText(text: string, pathMethod?: string): Promise<string | undefined> {
    return handleJsonRpcText(text, (method, params) => this.request({ method, params }), {
      limits: this.config.limits,
      pathMethod,
    })
  }

  on<K extends keyof NodeEvents>(event: K, listener: NodeEvents[K]): () => void {
    this.listeners[event].add(listener)
    return () => this.listeners[event].delete(listener)
  }

  /** Tells listeners what a call's console.log calls printed (none: nothing is told). */
  callPrinted(method: string, lines: string[]): void {
    if (lines.length > 0) this.emit('consoleLog', { kind: 'call', method, lines })
  }

  /** Tells listeners that `blocks` left the chain (evm_revert), once they are gone. */
  blocksRemoved(blocks: BlockRecord[]): void {
    if (blocks.length > 0) this.emit('blocksRemoved', blocks)
  }

  private emit<K extends keyof NodeEvents>(event: K, ...args: Parameters<NodeEvents[K]>): void {
    for (const listener of this.listeners[event]) (listener as (...a: unknown[]) => void)(...args)
  }

  async close(): Promise<void> {
    if (this.closed) return
    this.closed = true
    this.mining.stop()
    clearTimeout(this.batchTimer)
    // An older blocks' restore not begun yet is not begun now (it holds the miner's lock).
    this.beginRestoring?.()
    // Let a block being mined finish its commit before the store goes away (none is, on a chain
    // whose older blocks could not be read: the restore kept the lock).
    if (!this.olderUnreadable) {
      await this.miner.lock.acquire()
      this.miner.lock.release()
    }
    // What reads fetched from a fork's upstream since the last commit: kept for the next start.
    if (this.fork?.changed) await this.writer.persist().catch(() => {})
    await this.store.close()
    this.chain.records.close()
  }

  // ---- helpers shared by method handlers ----

  /** The block a parameter names; geth's "header not found" when there is none. */
  block(ref: BlockRef): BlockRecord {
    const block = this.chain.find(ref)
    if (block) return block
    throw new ServerError(ref.kind === 'hash' ? `header for hash ${ref.hash} not found` : 'header not found')
  }

  /** A sandbox holding the state after `block` (and the dev-node edits made on it). */
  sandbox(block: BlockRecord): Promise<Sandbox> {
    return this.state.sandbox(stateRootOf(block))
  }

  async account(address: PrefixedHexString, block: BlockRecord): Promise<Account | undefined> {
    const sandbox = await this.sandbox(block)
    return sandbox.read((vm) => vm.stateManager.getAccount(createAddressFromString(address)))
  }

  /**
   * The block a call "at" `block` runs in (eth_call, estimates, debug_traceCall), on its state:
   * that block's own context (number, timestamp, coinbase, base fee), as geth and Hardhat run it;
   * with `pending`, the next block's (the head's number + 1, the clock's time, the next coinbase
   * and PREVRANDAO).
   */
  callContext(block: BlockRecord, pending = false) {
    if (!pending) return minedBlockContext(this.common, block.header)
    return executionBlock(this.common, {
      parent: block.header,
      parentHash: hexToBytes(block.hash),
      timestamp: this.clock.nextTimestamp(block.header.timestamp),
      coinbase: this.params.coinbase,
      gasLimit: this.params.gasLimit,
      baseFeePerGas: this.params.baseFee(),
      prevRandao: this.params.nextPrevRandao,
    })
  }

  /**
   * Decodes a raw signed transaction and recovers its sender (exec/rawTransaction.ts) once the
   * WebAssembly crypto has loaded: a node's first transaction waits for it here, so that its own
   * sender recovery, and every transaction after it, runs on the fast path (see `submit`).
   */
  async decodeTransaction(raw: Uint8Array): Promise<SignedTransaction> {
    if (!fastCryptoSettled()) await loadFastCrypto()
    return decodeRawTransaction(raw, this.common)
  }

  /** Checks a transaction against the head and the pool (geth's rules); throws why it is refused. */
  async admit(signed: SignedTransaction): Promise<void> {
    checkCreationBytecode(signed)
    const paymaster = signed.eip712?.paymaster?.address
    const account = await this.miner.headAccount(signed.from)
    // A restarted chain holding its last blocks only knows a transaction mined below them once
    // the older blocks came: answered "already known", as on the whole chain, not "nonce too low".
    if (this.chain.partial && signed.tx.nonce < (account?.nonce ?? 0n)) await this.olderBlocks()
    checkAdmission(signed, {
      pool: this.pool,
      isMined: (hash) => this.chain.hasTransaction(hash as PrefixedHexString),
      account,
      baseFeePerGas: this.params.baseFee(),
      minGasPrice: this.params.minGasPrice,
      blockGasLimit: this.params.gasLimit,
      paymaster: paymaster && { address: paymaster, account: await this.miner.headAccount(paymaster) },
    })
    if (paymaster || signed.eip712?.signatureRefusal !== undefined) await this.validateAtHead(signed)
  }

  /**
   * A 0x71 transaction's validation run on the head's state, as ZKsync validates before it
   * accepts (exec/bootloader.ts, validateForAdmission): a contract account or a paymaster that
   * refuses is answered now with its reason instead of the transaction being dropped when mined.
   * Within eth_call's time limit.
   */
  private async validateAtHead(signed: SignedTransaction): Promise<void> {
    const head = this.chain.head
    const sandbox = await this.sandbox(head)
    await sandbox.runTimed(this.config.limits.evmTimeoutMs, 'call', (vm) => validateForAdmission(vm, this.callContext(head, true), signed))
  }

  /**
   * Admits a signed transaction to the pool and, under automine, mines it. Resolves once it is
   * in a committed block (automine) or accepted (interval/manual mining).
   */
  async submit(signed: SignedTransaction, admitted?: () => void): Promise<PrefixedHexString> {
    // The WebAssembly crypto finishes loading only when the event loop turns: a caller awaiting
    // in-memory requests back to back never lets it, and would run every transaction on the
    // pure-JS crypto (×3 slower). The first transaction waits for it (a raw one already did, in
    // `decodeTransaction`), later ones do not await at all. createNode does not wait: that would
    // add ~60 ms to every start in Node, and the secp256k1 chunk's download to a page's first
    // answer. (It never rejects: where WebAssembly is refused, the JS crypto stays.)
    if (!fastCryptoSettled()) await loadFastCrypto()
    await this.admit(signed)
    this.pool.add(signed, this.config.now())
    admitted?.()
    if (!this.mining.automine) {
      // Acknowledged once the pool holds it in the store: a crash must not lose it.
      await this.persistPooled(signed.hash)
      this.pendingAdded(signed.hash)
      return signed.hash
    }
    this.pendingAdded(signed.hash)

    let inclusion
    try {
      inclusion = await this.miner.mineThrough(signed.hash)
    } catch (error) {
      this.pool.remove(signed.hash) // an error means "not accepted": do not mine it later
      throw error
    }
    if (inclusion.status === 'dropped') throw new TransactionRejectedError(inclusion.reason)
    // A future nonce waits in the pool: acknowledged once stored there.
    if (inclusion.status === 'waiting') await this.persistPooled(signed.hash)
    if (inclusion.status === 'mined' && inclusion.failure && this.config.throwOnTransactionFailures) {
      // Mined all the same (its block, receipt and gas stay), as Hardhat does.
      const { message, outOfGas } = describeFailure(inclusion.failure)
      throw new TransactionFailedError(message, outOfGas, signed.hash, bytesToHex(inclusion.failure.returnValue))
    }
    return signed.hash
  }

  private pendingAdded(hash: PrefixedHexString): void {
    this.filters.pendingTransactionAdded(hash)
    this.emit('pendingTransaction', hash)
  }

  /** Stores the pool with `hash` in it; a refused commit means "not accepted": it leaves the pool. */
  private async persistPooled(hash: PrefixedHexString): Promise<void> {
    try {
      await this.writer.persist()
    } catch (error) {
      this.pool.remove(hash)
      throw error
    }
  }
}

export async function createNode(options: NodeConfig = {}): Promise<Node> {
  const resolved = resolveConfig(options)
  const store: Store = options.store ?? new EphemeralStore()
  // The store reads (IndexedDB: off this thread) while the dev accounts are derived here.
  const loading = store.load()
  loading.catch(() => {}) // awaited below, after the accounts
  const accounts = await deriveDevAccounts(resolved.mnemonic, resolved.accounts)
  const persisted = await loading
  // A fork takes the upstream's chain id (or the one it was stored with). Its code is loaded only
  // for a fork: the worker's startup bundle leaves it out.
  const fork =
    options.fork !== undefined || persisted?.fork !== undefined
      ? await (await import('./fork/openFork.ts')).openFork(options, { chain: persisted !== undefined, fork: persisted?.fork })
      : undefined
  const config: ResolvedConfig = fork ? forkConfig(resolved, options, fork.point) : resolved
  const common = createChainCommon(config.chainId)
  const nodes = new TrieNodeStore(store.nodes, config.limits.stateCacheNodes)
  // Where the store keeps no records in memory, the chain spills them to disk where it can (Node.js).
  const chain = new Chain(new RecordArena(!store.keepsBlocks))
  if (fork) chain.rebase(fork.point.blockNumber)
  // BLOCKHASH reads the hash the chain indexed, not a decoded header's; below a fork's first
  // block, the upstream's.
  const state = await StateMachine.create(
    common,
    nodes,
    (n) => {
      const block = chain.at(n)
      if (block) return hexToBytes(block.hash)
      const forked = n < chain.first ? state.fork : undefined
      return forked?.blockHash(n)
    },
    config.codeSizeLimit,
  )
  state.setFork(fork)
  const clock = new BlockClock(config.now)
  const writer = new ChainWriter(store, chain, nodes, config.chainId)
  // Stored blocks, restored or mined, are kept as their bytes, decoded while recently read.
  const decode = (bytes: Uint8Array) => standInForForkBlock(decodeBlockRecord(bytes, common), state.fork?.point)
  const recent = new DecodedBlocks()
  const recentLogs = new RecentLogs()
  chain.storedForm = (block, bytes) => new StoredBlock(bytes, decode, recent, undefined, recentLogs, block)

  // A fork's first block (position 0) has the upstream's hash, which a store's hash of its header is not.
  const forkBlockHash = fork && hexToBytes(fork.point.blockHash)
  const storedBlock: RestoredBlock = (bytes, hash, position) =>
    new StoredBlock(chain.records.hold(bytes), decode, recent, position === 0 && forkBlockHash ? forkBlockHash : hash, recentLogs)
  if (persisted) {
    restoreChain(persisted, chain, config.chainId, storedBlock)
    writer.restored(chain.tip.number)
    // The state's nodes are read from the store by need (TrieNodeStore.get): a start that answers
    // from the chain alone never waits for them, and its first state read reads only its path.
    await state.vm.stateManager.setStateRoot(stateRootOf(chain.tip))
    // Stored already: only what is fetched from now on is written.
    fork?.drainNew()
  } else {
    chain.append(await createGenesis(state, common, config, accounts, clock.now()))
    writer.enqueue(chain.tip)
    await writer.durable(chain.first)
  }
  const node = new Node(config, common, accounts, chain, state, clock, store, writer)
  node.useFork(fork)
  if (persisted) {
    // The pool and the settings as last stored: a restart resumes where the node stood.
    node.pool.load((persisted.pool ?? []).map(([seq, bytes]) => ({ ...decodePoolEntry(bytes, common), seq })))
    if (persisted.settings) {
      restoreSettings(node, persisted.settings, common, { mining: options.mining !== undefined, blockGasLimit: options.blockGasLimit !== undefined })
    }
    writer.restored(chain.tip.number, persisted.settings)
    if (persisted.older) node.restoreOlderBlocks(persisted.older, (older) => restoreOlder(persisted, older, chain, storedBlock))
    if (node.mining.automine && node.pool.size > 0) {
      // Mining on last blocks that cannot take the next one needs the older blocks (the miner
      // waits for them): read them now, not when due.
      if (!chain.mineable) {
        try {
          await node.olderBlocks()
        } catch (error) {
          await node.close()
          throw error
        }
      }
      await mineRestoredPool(node)
    }
  }
  return node
}

/**
 * A fork's settings: the upstream's chain id (or the one given), and the fork block's base fee
 * unless a gas price is given, as anvil does: a client pricing its first transaction from the
 * fork block's base fee must not fall below the node's.
 */
function forkConfig(resolved: ResolvedConfig, options: NodeConfig, point: ForkPoint): ResolvedConfig {
  const gasPrice = options.gasPrice === undefined && point.baseFee !== undefined ? point.baseFee : resolved.gasPrice
  return { ...resolved, chainId: point.chainId, gasPrice }
}

/**
 * A node that starts in automine with executable transactions in its stored pool (pooled under
 * interval or manual mining before the restart, or a mode given at start) mines them now, as
 * automine would have when they arrived, instead of leaving them for the next transaction or
 * evm_mine. A store that refuses their blocks fails the start: those transactions stay in the
 * stored pool for the next one (under automine a lost block's transactions are not pooled again).
 */
async function mineRestoredPool(node: Node): Promise<void> {
  try {
    await node.miner.mineExecutable()
  } catch (error) {
    await node.close()
    throw error
  }
}

/** How long after a start a chain restored from its last blocks reads the older ones, unless a call needs them first (ms). */
const RESTORE_OLDER_AFTER_MS = 1_000

/** Restored blocks indexed by hash per task in the background (~1 ms of work each). */
const INDEX_SLICE = 500

/**
 * Rebuilds the in-memory chain from a store, refusing what this version cannot read. Blocks are
 * indexed from their records' summaries and decoded only when read (chain/storedBlock.ts), so
 * this stays quick however long the chain is.
 */
function restoreChain(persisted: PersistedChain, chain: Chain, chainId: number, storedBlock: RestoredBlock): void {
  const { meta, blocks, blockHashes, firstBlock = 0 } = persisted
  if (meta.schemaVersion > SCHEMA_VERSION) {
    throw new ChainStoreError(
      `the stored chain was written by a newer pagenode (schema ${meta.schemaVersion}; this version reads ${SCHEMA_VERSION}): upgrade pagenode or use another store`,
    )
  }
  if (meta.chainId !== chainId) {
    throw new ChainStoreError(`the stored chain has chain id ${meta.chainId}, not ${chainId}: open it with chainId ${meta.chainId} or use another store`)
  }
  checkComplete(blocks, firstBlock, Number(meta.headNumber) + 1, meta.headNumber)
  chain.restore(
    blocks.map((bytes, i) => storedBlock(bytes, blockHashes?.[i], firstBlock + i)),
    firstBlock,
    meta.genesisHash as PrefixedHexString,
  )
  indexInBackground(chain)
  if (firstBlock === 0) checkGenesis(chain, meta.genesisHash)
}

/** Blocks 0 up to the first restored one, which the store read after the start (Node.restoreOlderBlocks). */
function restoreOlder(persisted: PersistedChain, older: OlderBlocks, chain: Chain, storedBlock: RestoredBlock): void {
  const { meta, firstBlock = 0 } = persisted
  checkComplete(older.blocks, 0, firstBlock, meta.headNumber)
  chain.restoreOlder(older.blocks.map((bytes, position) => storedBlock(bytes, older.blockHashes?.[position], position)))
  checkGenesis(chain, meta.genesisHash)
  indexInBackground(chain)
}

/** A block from the store: its bytes, its hash if the store kept it, and its position in the chain (0: its genesis). */
type RestoredBlock = (bytes: Uint8Array, hash: Uint8Array | undefined, position: number) => StoredBlock

/**
 * A fork's first block stands for the upstream's fork block (exec/genesis.ts): its hash is the
 * upstream's, not its header's, decoded or restored (a store hashes headers).
 */
function standInForForkBlock(record: BlockRecord, point: ForkPoint | undefined): BlockRecord {
  if (point && record.number === point.blockNumber) record.hash = point.blockHash
  return record
}

/** Restored blocks' hashes are indexed between the first calls, a slice per task, or by the first lookup by hash. */
function indexInBackground(chain: Chain): void {
  const indexSlice = () => chain.indexRestored(INDEX_SLICE) || setTimeout(indexSlice)
  setTimeout(indexSlice)
}

/** `blocks` (from `first`) are the `count - first` blocks below `count`, each stored. */
function checkComplete(blocks: Uint8Array[], first: number, count: number, head: bigint): void {
  const stored = blocks.reduce((n, bytes) => (bytes.length > 0 ? n + 1 : n), 0)
  if (blocks.length !== count - first || stored !== blocks.length) {
    const missing = first === 0 ? `${stored} blocks are stored` : `blocks ${first} to ${count - 1} are not all stored`
    throw new ChainStoreError(`the stored chain is incomplete: its head is block ${head} but ${missing}`)
  }
}

function checkGenesis(chain: Chain, genesisHash: string): void {
  if (chain.genesis.hash !== genesisHash) {
    throw new ChainStoreError('the stored chain is damaged: its genesis block does not match its record')
  }
}
