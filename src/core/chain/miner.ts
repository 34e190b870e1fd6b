import { Lock, type Account, type PrefixedHexString } from '@ethereumjs/util'
import { createAddressFromString, hexToBytes } from '@ethereumjs/util'
import { produceBlock } from '../exec/blockProducer.ts'
import type { StateMachine } from '../exec/stateMachine.ts'
import type { BatchPolicy } from './batches.ts'
import type { BlockParams } from './blockParams.ts'
import { toBlockRecord } from './blockRecord.ts'
import type { Chain } from './chain.ts'
import type { ChainWriter } from './chainWriter.ts'
import type { BlockClock } from './clock.ts'
import { stateRootOf, type BlockRecord } from './records.ts'
import type { ExecutionFailure } from '../exec/transactionFailure.ts'
import type { PoolEntry, TxPool } from './txPool.ts'

export interface MinerDeps {
  state: StateMachine
  chain: Chain
  pool: TxPool
  writer: ChainWriter
  clock: BlockClock
  params: BlockParams
  batches: BatchPolicy
  onBlock(block: BlockRecord): void
  /**
   * Whether the transactions of blocks lost to a refused commit go back to the pool. Not under
   * automine: each one's sender is told it failed, so mining it later would contradict that.
   */
  requeueLostTransactions(): boolean
}

/** What happened to a transaction the pool handed to the miner. */
export type Inclusion =
  /** `failure`: how its execution failed (reverted, out of gas, …), when it did. */
  | { status: 'mined'; block: BlockRecord; failure?: ExecutionFailure }
  | { status: 'dropped'; reason: string }
  | { status: 'waiting' }

const DROPPED_MEMORY = 1000

/**
 * Produces blocks from the pool, one at a time: every state change of the chain happens under
 * `lock`, so the miner's VM is always at the head between blocks. A block is appended in memory
 * and queued for the store (ChainWriter); it is acknowledged, and announced, once stored. A
 * refused commit rolls the chain and the state back to the last stored block and, unless their
 * senders were told they failed (automine), returns the transactions of the lost blocks to the pool.
 */
export class Miner {
  readonly lock = new Lock()
  private readonly dropped = new Map<PrefixedHexString, string>()
  /** How the last transactions that failed in a block failed (for their senders, once). */
  private readonly failures = new Map<PrefixedHexString, ExecutionFailure>()

  constructor(private readonly deps: MinerDeps) {
    deps.writer.rollBack = (lastStored) => this.rollBack(lastStored)
  }

  /** Mines one block holding up to `maxTransactions` executable pool transactions; resolves once stored. */
  async mine(maxTransactions = Infinity): Promise<BlockRecord> {
    await this.lock.acquire()
    let block: BlockRecord
    try {
      block = await this.mineLocked(maxTransactions)
    } finally {
      this.lock.release()
    }
    await this.deps.writer.durable(block.number)
    return block
  }

  /**
   * Mines `count` blocks from the pool in one go (anvil_mine, evm_mine {blocks}); resolves once
   * all are stored. The first block takes `timestamp` when given, else the clock's time; with an
   * interval, each later block is that many seconds after the one before it.
   */
  async mineBlocks(count: number, { interval, timestamp }: { interval?: bigint; timestamp?: bigint } = {}): Promise<BlockRecord[]> {
    await this.lock.acquire()
    const blocks: BlockRecord[] = []
    try {
      for (let i = 0; i < count; i++) {
        if (i === 0 && timestamp !== undefined) this.deps.clock.nextOverride = timestamp
        if (i > 0 && interval) this.deps.clock.nextOverride = blocks[i - 1].header.timestamp + interval
        blocks.push(await this.mineLocked(Infinity))
      }
    } finally {
      this.lock.release()
    }
    if (blocks.length > 0) await this.deps.writer.durable(blocks[blocks.length - 1].number)
    return blocks
  }

  /**
   * Runs `work` with the chain to itself: under the lock, with every earlier change stored, so
   * that `work` may change the chain in place and wait for its own commit without a block being
   * built meanwhile. A commit of `work`'s that fails leaves nothing for the rollback to undo
   * (nothing new was appended); `work` undoes what it did itself.
   */
  async exclusive<T>(work: () => Promise<T>): Promise<T> {
    for (;;) {
      // Someone else's failed commit is theirs to report; its rollback is done by now.
      await this.deps.writer.settled().catch(() => {})
      await this.lock.acquire()
      if (this.deps.writer.idle) break
      this.lock.release()
    }
    try {
      return await work()
    } finally {
      this.lock.release()
    }
  }

  /**
   * Automine: mines one-transaction blocks, in pool order, while any transaction is executable
   * (so a transaction that fills a nonce gap brings the queued ones after it along), then says
   * what became of `hash`.
   */
  async mineThrough(hash: PrefixedHexString): Promise<Inclusion> {
    await this.lock.acquire()
    let inclusion: Inclusion
    let last: BlockRecord | undefined
    try {
      for (let next = await this.executable(1); next.length > 0; next = await this.executable(1)) {
        last = await this.mineLocked(1, next)
      }
      inclusion = this.inclusionOf(hash)
    } finally {
      this.lock.release()
    }
    // The lock is free while the store commits, so blocks of other callers join the next commit.
    // A transaction that filled a gap is answered once the ones it brought along are stored too
    // (readers see them then: Chain.publish), so its sender finds their receipts at once.
    if (inclusion.status === 'mined') await this.deps.writer.durable(last && last.number > inclusion.block.number ? last.number : inclusion.block.number)
    return inclusion
  }

  /**
   * Automine at start: mines the pool's executable transactions as `mineThrough` would have had
   * the node been in automine when they arrived (they were pooled under interval or manual mining
   * before a restart); resolves once their blocks are stored.
   */
  async mineExecutable(): Promise<void> {
    await this.lock.acquire()
    let last: BlockRecord | undefined
    try {
      for (let next = await this.executable(1); next.length > 0; next = await this.executable(1)) last = await this.mineLocked(1, next)
    } finally {
      this.lock.release()
    }
    if (last) await this.deps.writer.durable(last.number)
  }

  /**
   * An account at the head, for admission: read from the miner's VM under the lock, where it
   * sits at the head's state with the accounts of the last blocks in its caches. A sandbox would
   * first move to each new head's root and read the trie cold (bench: ~0.3 ms of every
   * automined transaction in Chromium, 0.2 ms in Node).
   */
  async headAccount(address: PrefixedHexString): Promise<Account | undefined> {
    await this.lock.acquire()
    try {
      return await this.deps.state.vm.stateManager.getAccount(createAddressFromString(address))
    } finally {
      this.lock.release()
    }
  }

  private inclusionOf(hash: PrefixedHexString): Inclusion {
    const mined = this.deps.chain.minedTransaction(hash)
    if (mined) return { status: 'mined', block: this.deps.chain.at(mined.blockNumber)!, failure: this.failures.get(hash) }
    const reason = this.dropped.get(hash)
    if (reason !== undefined) return { status: 'dropped', reason }
    return this.deps.pool.get(hash) ? { status: 'waiting' } : { status: 'dropped', reason: 'transaction was removed from the pool' }
  }

  /** After a refused commit: back to the last stored block, its transactions back in the pool. */
  private async rollBack(lastStored: bigint): Promise<void> {
    const { chain, pool, state } = this.deps
    // Nothing was appended above the store's head: the failed commit was an exclusive change's,
    // which holds the lock and undoes itself (waiting for the lock here would never end).
    if (lastStored < 0n || chain.tip.number <= lastStored) return
    await this.lock.acquire()
    try {
      const requeue = this.deps.requeueLostTransactions()
      for (const block of chain.truncate(lastStored)) {
        if (requeue) for (const tx of block.transactions) pool.add(tx, this.deps.clock.nowMs())
      }
      await state.vm.stateManager.setStateRoot(stateRootOf(chain.tip))
    } finally {
      this.lock.release()
    }
  }

  private async executable(limit: number): Promise<PoolEntry[]> {
    const stateManager = this.deps.state.vm.stateManager
    const nonces = new Map<PrefixedHexString, bigint>()
    for (const sender of this.deps.pool.senders()) {
      const account = await stateManager.getAccount(createAddressFromString(sender))
      nonces.set(sender, account?.nonce ?? 0n)
    }
    return this.deps.pool.executable((from) => nonces.get(from) ?? 0n, limit)
  }

  private async mineLocked(maxTransactions: number, selected?: PoolEntry[]): Promise<BlockRecord> {
    const { state, chain, pool, writer, clock, params } = this.deps
    const entries = selected ?? (await this.executable(maxTransactions))
    const parent = chain.tip
    const timestamp = clock.nextTimestamp(parent.header.timestamp)
    const produced = await produceBlock(
      state.vm,
      {
        parent: parent.header,
        parentHash: hexToBytes(parent.hash),
        timestamp,
        coinbase: params.coinbase,
        gasLimit: params.gasLimit,
        baseFeePerGas: params.baseFee(),
        prevRandao: params.nextPrevRandao,
      },
      entries,
    )
    state.trimCaches()
    const placement = chain.nextBatchPlacement(timestamp)
    const record = toBlockRecord(produced, placement)
    record.sealsBatch = this.deps.batches.sealsWith(placement)

    for (const { signed, result } of produced.included) {
      pool.remove(signed.hash)
      const error = result.execResult.exceptionError
      if (error) this.remember(this.failures, signed.hash, { returnValue: result.execResult.returnValue, error: error.error })
    }
    for (const { signed, reason } of produced.dropped) {
      pool.remove(signed.hash)
      this.remember(this.dropped, signed.hash, reason)
    }

    chain.append(record)
    clock.blockMined(timestamp)
    params.blockMined()
    writer.enqueue(record)
    void writer.durable(record.number).then(
      () => this.deps.onBlock(record),
      () => {},
    )
    return record
  }

  /**
   * Seals the open batch if it is due by age (the timer's job: an idle chain still finalizes).
   * The head's record changes (it now ends the batch) and goes to the store again.
   */
  async sealDueBatch(): Promise<void> {
    await this.lock.acquire()
    try {
      const { chain, writer, batches } = this.deps
      const open = chain.openBatch
      if (!open || batches.dueInMs(open) !== 0) return
      writer.enqueue(chain.sealOpenBatch()!)
    } finally {
      this.lock.release()
    }
  }

  /** Remembers what became of the last DROPPED_MEMORY transactions of a kind, the oldest forgotten. */
  private remember<T>(memory: Map<PrefixedHexString, T>, hash: PrefixedHexString, value: T): void {
    memory.set(hash, value)
    if (memory.size > DROPPED_MEMORY) memory.delete(memory.keys().next().value!)
  }
}
