import type { Common } from '@ethereumjs/common'
import type { EVMMockBlockchainInterface, EVMOpts } from '@ethereumjs/evm'
import { MerklePatriciaTrie } from '@ethereumjs/mpt'
import { Caches } from '@ethereumjs/statemanager'
import { KECCAK256_RLP, Lock, type DB } from '@ethereumjs/util'
import { bytesToHex } from '../hexText.ts'
import { createVM, type VM } from '@ethereumjs/vm'
import { recordPreimages } from './preimages.ts'
import { ReadMemoTrie, SandboxStateManager } from './sandboxState.ts'
import { ForkableStateManager } from '../fork/forkedStateManager.ts'
import type { ForkState } from '../fork/forkState.ts'
import { ScratchNodeStore, type TrieNodeStore } from '../store/trieNodeStore.ts'
import { keepCodeAnalyses } from './enginePatches.ts'
import { codeSizeOptions, DEFAULT_CODE_SIZE_LIMIT, type CodeSizeLimit } from './codeSizeLimit.ts'
import { P256_VERIFY_PRECOMPILE } from './p256Verify.ts'
import { ExecutionTimeLimit, type TimeoutWording } from './executionTimeLimit.ts'
import { NONCE_HOLDER_PRECOMPILE } from '../rollup/nonceHolder.ts'
import { runContractDeployerCreations } from './contractDeployerHook.ts'

/** Hash of a canonical block by number, for the BLOCKHASH opcode. */
/** A block's hash for BLOCKHASH (a fork's older blocks are the upstream's: asked of it by need). */
export type BlockHashLookup = (number: bigint) => Uint8Array | undefined | Promise<Uint8Array | undefined>

const ZERO_HASH = new Uint8Array(32)
const SANDBOX_CACHE_SIZE = 4

/**
 * The EVM over the chain's state. `vm` is the miner's VM and always sits at the head's state
 * root between blocks; reads and calls use sandboxes so they never disturb it.
 *
 * A sandbox is a VM at a fixed state root whose writes land in a scratch layer and are reverted
 * after each use. Because trie nodes are content-addressed and never deleted, a sandbox for a
 * root stays valid forever, so the last few are kept warm (their caches make repeated calls on
 * the same block cheap).
 */
/**
 * Accounts, slots and codes the miner's caches take before they are emptied: a few MB at most,
 * and 20 blocks of a thousand transfers each between two clears.
 */
const MINER_CACHE_ENTRIES = 20_000

export class StateMachine {
  private readonly sandboxes = new Map<string, Sandbox>()
  /** Every sandbox at work now, kept or not: `clear` waits for them. */
  private readonly working = new Set<Sandbox>()
  /** The upstream state under the local one, on a forked chain (fork/forkState.ts). */
  private forkState: ForkState | undefined

  private constructor(
    readonly common: Common,
    readonly nodes: TrieNodeStore,
    readonly vm: VM,
    private readonly blockchain: EVMMockBlockchainInterface,
    private readonly preimages: { forget(): void },
    private readonly evmOptions: EVMOpts,
  ) {}

  static async create(common: Common, nodes: TrieNodeStore, blockHash: BlockHashLookup, codeSizeLimit: CodeSizeLimit = DEFAULT_CODE_SIZE_LIMIT): Promise<StateMachine> {
    const blockchain = blockHashAdapter(blockHash)
    // ZKsync's P256VERIFY and NonceHolder beside Prague's precompiles.
    const evmOptions: EVMOpts = { ...codeSizeOptions(common, codeSizeLimit), customPrecompiles: [P256_VERIFY_PRECOMPILE, NONCE_HOLDER_PRECOMPILE] }
    const vm = await newVm(common, nodes, undefined, blockchain, 'miner', evmOptions)
    // Only the miner's VM writes state that is kept: its keys are the ones a dump must name.
    const preimages = recordPreimages(vm.stateManager as ForkableStateManager, nodes)
    return new StateMachine(common, nodes, vm, blockchain, preimages, evmOptions)
  }

  get fork(): ForkState | undefined {
    return this.forkState
  }

  /**
   * Reads what the local state lacks from `fork` from now on (none: a chain that is not a fork).
   * Set at start, or by anvil_reset after `clear`, while no sandbox exists.
   */
  setFork(fork: ForkState | undefined): void {
    this.forkState = fork
    ;(this.vm.stateManager as ForkableStateManager).fork = fork
    this.sandboxes.clear()
  }

  /**
   * Bounds the miner's state caches (ForkableStateManager.trimCaches): called after each block,
   * when its state root flushed them; never while a checkpoint is open.
   */
  trimCaches(): void {
    if (journalHeight(this.vm) === 0) (this.vm.stateManager as ForkableStateManager).trimCaches(MINER_CACHE_ENTRIES)
  }

  /** Empties the state (anvil_reset, after the store was wiped): no nodes, no sandboxes, the empty root. */
  async clear(): Promise<void> {
    // A call paused for the event loop (ExecutionTimeLimit) still reads these nodes: it finishes
    // first (within its time limit), rather than fail on nodes wiped under it.
    while (this.working.size > 0) await Promise.all([...this.working].map((sandbox) => sandbox.idle()))
    this.sandboxes.clear()
    this.nodes.clear()
    this.preimages.forget()
    await this.vm.stateManager.setStateRoot(KECCAK256_RLP)
  }

  /**
   * A reusable sandbox at `stateRoot`; callers must go through `Sandbox.read`/`run`. One whose
   * work has paused for the event loop (a long call) is not waited for: the caller gets a sandbox
   * of its own, so a slow call never holds up the reads at its block.
   */
  async sandbox(stateRoot: Uint8Array): Promise<Sandbox> {
    const key = bytesToHex(stateRoot)
    let sandbox = this.sandboxes.get(key)
    if (sandbox?.stalled) return this.freshSandbox(stateRoot)
    if (sandbox) {
      this.sandboxes.delete(key) // re-inserted below: most recently used last
    } else if (this.sandboxes.size >= SANDBOX_CACHE_SIZE) {
      // Every new block has a new root: moving the least recently used sandbox to it costs a
      // cache reset, where a new VM would cost a Common copy and an EVM build on every block.
      // A stalled one would make the move wait for its call: the next one is moved instead.
      const entry = [...this.sandboxes].find(([, kept]) => !kept.stalled)
      if (!entry) return this.freshSandbox(stateRoot)
      const [oldest, recycled] = entry
      this.sandboxes.delete(oldest)
      await recycled.moveTo(stateRoot)
      sandbox = recycled
    } else {
      sandbox = await this.freshSandbox(stateRoot)
    }
    this.sandboxes.set(key, sandbox)
    return sandbox
  }

  /**
   * A sandbox used once and dropped: for work that leaves the state manager's internal tries
   * out of step with its caches after a revert (state overrides that replace whole storage).
   */
  async freshSandbox(stateRoot: Uint8Array): Promise<Sandbox> {
    const timeLimit = new ExecutionTimeLimit()
    const evmOptions: EVMOpts = { ...this.evmOptions, customOpcodes: timeLimit.opcodes(this.common) }
    const vm = await newVm(this.common, new ScratchNodeStore(this.nodes), stateRoot, this.blockchain, 'sandbox', evmOptions)
    ;(vm.stateManager as ForkableStateManager).fork = this.forkState
    return new Sandbox(vm, timeLimit, this.working)
  }
}

export class Sandbox {
  private readonly lock = new Lock()
  private busy = 0

  constructor(
    readonly vm: VM,
    private readonly timeLimit: ExecutionTimeLimit,
    private readonly working: Set<Sandbox>,
  ) {}

  /** Whether its work has paused for the event loop and is still running: a long call. */
  get stalled(): boolean {
    return this.busy > 0 && this.timeLimit.paused
  }

  /** Resolves once no work is running nor waiting on this sandbox. */
  async idle(): Promise<void> {
    await this.read(async () => {})
  }

  /** Points this sandbox at another state root (waits for work in progress). */
  async moveTo(stateRoot: Uint8Array): Promise<void> {
    await this.read((vm) => vm.stateManager.setStateRoot(stateRoot))
  }

  /** Runs a read-only `work` on this sandbox's state, one at a time. */
  async read<T>(work: (vm: VM) => Promise<T>): Promise<T> {
    await this.acquire()
    try {
      return await work(this.vm)
    } finally {
      this.release()
    }
  }

  /** Runs `work` on this sandbox's state, one at a time, and undoes every change afterwards. */
  async run<T>(work: (vm: VM) => Promise<T>): Promise<T> {
    await this.acquire()
    const journal = this.vm.evm.journal
    const height = journalHeight(this.vm)
    await journal.checkpoint()
    try {
      return await work(this.vm)
    } finally {
      await revertJournalTo(this.vm, height)
      this.release()
    }
  }

  /**
   * `run`, with the execution time limit (docs/json-rpc.md, "Execution time limit"): `limitMs`
   * from the start of `work` (0: none); the EVM gives the event loop a turn every few
   * milliseconds meanwhile. Rejects with ExecutionTimeoutError past the limit.
   */
  runTimed<T>(limitMs: number, wording: TimeoutWording, work: (vm: VM) => Promise<T>): Promise<T> {
    return this.run((vm) => this.timeLimit.within(limitMs, wording, () => work(vm)))
  }

  private async acquire(): Promise<void> {
    this.busy++
    this.working.add(this)
    await this.lock.acquire()
  }

  private release(): void {
    this.lock.release()
    if (--this.busy === 0) this.working.delete(this)
  }
}

/**
 * How many checkpoints the VM's state has open: the state manager's count (the journal's own
 * height is set back to 0 by every runTx, block checkpoint open or not).
 */
export function journalHeight(vm: VM): number {
  return (vm.stateManager as unknown as { _checkpointCount: number })._checkpointCount
}

/**
 * Reverts the journal's checkpoints down to `height`. An exception that is not an EVM error (a
 * fork's upstream that failed a read) leaves the EVM's own checkpoints of the call frames open:
 * one revert would leave the state at a checkpoint that is never closed.
 */
export async function revertJournalTo(vm: VM, height: number): Promise<void> {
  const unbalanced = journalHeight(vm) > height + 1
  while (journalHeight(vm) > height) await vm.evm.journal.revert()
  // The journal's own height went below its bottom with them: at the bottom, it starts clean.
  if (unbalanced && height === 0) vm.evm.journal.cleanJournal()
}

async function newVm(
  common: Common,
  db: DB<string, Uint8Array>,
  root: Uint8Array | undefined,
  blockchain: EVMMockBlockchainInterface,
  role: 'miner' | 'sandbox',
  evmOpts: EVMOpts,
): Promise<VM> {
  const options = { db, useKeyHashing: true, common, valueEncoding: 'view', root } as const
  // The miner's caches outlive its blocks (a block is committed, never reverted); a sandbox's
  // reads would not outlive its runs without SandboxStateManager's tries.
  const stateManager =
    role === 'miner'
      ? new ForkableStateManager({ common, trie: new MerklePatriciaTrie(options), caches: new Caches() })
      : new SandboxStateManager({ common, trie: new ReadMemoTrie(options), caches: new Caches() })
  const vm = await createVM({ common, stateManager, blockchain, evmOpts })
  await keepCodeAnalyses(vm.evm)
  runContractDeployerCreations(vm.evm)
  return vm
}

/** The VM only needs block hashes (BLOCKHASH); blocks themselves are stored by the chain. */
function blockHashAdapter(blockHash: BlockHashLookup): EVMMockBlockchainInterface {
  const adapter: EVMMockBlockchainInterface = {
    getBlock: async (number: number) => {
      const hash = (await blockHash(BigInt(number))) ?? ZERO_HASH
      return { hash: () => hash }
    },
    putBlock: async () => {},
    shallowCopy: () => adapter,
  }
  return adapter
}
