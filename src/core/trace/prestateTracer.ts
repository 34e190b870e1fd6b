import type { EVMResult, Message } from '@ethereumjs/evm'
import { bigIntToHex, createAddressFromString, equalsBytes, hexToBytes, setLengthLeft, type PrefixedHexString } from '@ethereumjs/util'
import { bytesToHex } from '../hexText.ts'
import type { RunTxResult, VM } from '@ethereumjs/vm'
import { InternalError } from '../errors.ts'
import type { TracedRun, Tracer, TraceTarget } from './tracer.ts'

export interface PrestateTracerOptions {
  /** Report what changed ({pre, post}) instead of everything touched. */
  diffMode: boolean
  disableCode: boolean
  disableStorage: boolean
}

/** geth's prestate account (eth/tracers/native/prestate.go): empty fields left out. */
export interface PrestateAccount {
  balance?: PrefixedHexString
  code?: PrefixedHexString
  nonce?: number
  storage?: Record<PrefixedHexString, PrefixedHexString>
}

export type PrestateResult = Record<PrefixedHexString, PrestateAccount> | { post: Record<PrefixedHexString, PrestateAccount>; pre: Record<PrefixedHexString, PrestateAccount> }

interface AccountState {
  exists: boolean
  balance: bigint
  nonce: bigint
  code: Uint8Array
  storage: Map<PrefixedHexString, PrefixedHexString>
}

const ZERO_WORD: PrefixedHexString = `0x${'00'.repeat(32)}`
const EMPTY = new Uint8Array()

/** Accounts (and their storage slots) a transaction touched. */
class TouchedState {
  readonly accounts = new Map<PrefixedHexString, Set<PrefixedHexString>>()
  readonly created = new Set<PrefixedHexString>()

  touch(address: string, slots: Iterable<string> = []): void {
    const key = address.toLowerCase() as PrefixedHexString
    let set = this.accounts.get(key)
    if (!set) this.accounts.set(key, (set = new Set()))
    for (const slot of slots) set.add(`0x${slot.replace(/^0x/, '').padStart(64, '0').toLowerCase()}`)
  }
}

/**
 * geth's prestateTracer: the state of every account the transaction touched, as it was before
 * it ran; with `diffMode`, only what changed, before and after.
 *
 * geth finds the accounts by inspecting opcodes; that needs the EVM's `step` event (+60%).
 * Here they come from the journal's access list (every address and slot the transaction
 * warmed, including in frames that reverted) plus message targets (precompiles are always
 * warm, so only messages show them). The values are read from the state itself: after the
 * transaction for `post`, then — the transaction reverted — before it for `pre`. Accounts and
 * slots named in the transaction's own access list count as touched.
 */
export class PrestateTracer implements Tracer {
  constructor(private readonly options: PrestateTracerOptions) {}

  async run(vm: VM, execute: () => Promise<RunTxResult>, target: TraceTarget, more: boolean): Promise<TracedRun> {
    const touched = new TouchedState()
    for (const address of [target.from, target.to, target.coinbase, ...target.authorities()]) if (address) touched.touch(address)
    for (const { address, storageKeys } of target.accessList) touched.touch(address, storageKeys)

    const journal = vm.evm.journal
    await journal.checkpoint()
    let result: RunTxResult
    let post: Map<PrefixedHexString, AccountState> | undefined
    try {
      const detach = watchTouches(vm, touched)
      try {
        result = await execute()
      } finally {
        detach()
      }
      if (this.options.diffMode) post = await this.read(vm, touched)
    } finally {
      await journal.revert()
    }
    const pre = await this.read(vm, touched)
    if (post && target.lentGasPrice !== undefined) {
      const sender = post.get(target.from.toLowerCase() as PrefixedHexString)
      if (sender) sender.balance -= (target.gasLimit - result.totalGasSpent) * target.lentGasPrice
    }
    if (more) {
      // The state must move on to the next transaction: run this one again, untraced.
      const again = await execute()
      if (again.totalGasSpent !== result.totalGasSpent) {
        throw new InternalError(`replay diverged: the transaction used ${again.totalGasSpent} gas instead of ${result.totalGasSpent}`)
      }
      result = again
    }
    return { result, trace: post ? this.diff(pre, post, touched) : this.prestate(pre, touched) }
  }

  private async read(vm: VM, touched: TouchedState): Promise<Map<PrefixedHexString, AccountState>> {
    const sm = vm.stateManager
    const states = new Map<PrefixedHexString, AccountState>()
    for (const [hex, slots] of touched.accounts) {
      const address = createAddressFromString(hex)
      const account = await sm.getAccount(address)
      const storage = new Map<PrefixedHexString, PrefixedHexString>()
      if (!this.options.disableStorage) {
        for (const slot of slots) {
          const value = account ? await sm.getStorage(address, hexToBytes(slot)) : EMPTY
          storage.set(slot, bytesToHex(setLengthLeft(value, 32)))
        }
      }
      states.set(hex, {
        exists: account !== undefined,
        balance: account?.balance ?? 0n,
        nonce: account?.nonce ?? 0n,
        code: account && !this.options.disableCode ? await sm.getCode(address) : EMPTY,
        storage,
      })
    }
    return states
  }

  /** Everything touched, as it was; a contract created here had no prestate and is left out. */
  private prestate(pre: Map<PrefixedHexString, AccountState>, touched: TouchedState): Record<PrefixedHexString, PrestateAccount> {
    const out: Record<PrefixedHexString, PrestateAccount> = {}
    for (const address of [...pre.keys()].sort()) {
      const state = pre.get(address)!
      if (touched.created.has(address) && isEmpty(state)) continue
      out[address] = formatAccount(state.balance, state.nonce, state.code, state.storage)
    }
    return out
  }

  /** geth's processDiffState: changed fields only; unchanged accounts and slots dropped. */
  private diff(pre: Map<PrefixedHexString, AccountState>, post: Map<PrefixedHexString, AccountState>, touched: TouchedState) {
    const preOut: Record<PrefixedHexString, PrestateAccount> = {}
    const postOut: Record<PrefixedHexString, PrestateAccount> = {}
    for (const address of [...pre.keys()].sort()) {
      const before = pre.get(address)!
      const after = post.get(address)!
      if (before.exists && !after.exists && !isEmpty(before)) {
        // Destroyed: it has a prestate and nothing after.
        preOut[address] = formatAccount(before.balance, before.nonce, before.code, before.storage)
        continue
      }
      const changedStorage = new Map<PrefixedHexString, PrefixedHexString>()
      const preStorage = new Map<PrefixedHexString, PrefixedHexString>()
      for (const [slot, value] of before.storage) {
        const now = after.storage.get(slot)!
        if (now === value) continue
        if (value !== ZERO_WORD) preStorage.set(slot, value)
        if (now !== ZERO_WORD) changedStorage.set(slot, now)
      }
      const balanceChanged = after.balance !== before.balance
      const nonceChanged = after.nonce !== before.nonce
      const codeChanged = !this.options.disableCode && !equalsBytes(after.code, before.code)
      const storageChanged = [...before.storage].some(([slot, value]) => after.storage.get(slot) !== value)
      if (!(balanceChanged || nonceChanged || codeChanged || storageChanged)) continue
      postOut[address] = formatAccount(
        balanceChanged ? after.balance : undefined,
        nonceChanged ? after.nonce : 0n,
        codeChanged ? after.code : EMPTY,
        changedStorage,
      )
      if (!(touched.created.has(address) && isEmpty(before))) {
        preOut[address] = formatAccount(before.balance, before.nonce, before.code, preStorage)
      }
    }
    return { post: postOut, pre: preOut }
  }
}

function isEmpty(state: AccountState): boolean {
  return state.balance === 0n && state.nonce === 0n && state.code.length === 0
}

function formatAccount(
  balance: bigint | undefined,
  nonce: bigint,
  code: Uint8Array,
  storage: Map<PrefixedHexString, PrefixedHexString>,
): PrestateAccount {
  const account: PrestateAccount = {}
  if (balance !== undefined) account.balance = bigIntToHex(balance)
  if (code.length > 0) account.code = bytesToHex(code)
  if (nonce > 0n) account.nonce = Number(nonce)
  if (storage.size > 0) account.storage = Object.fromEntries([...storage].sort(([a], [b]) => (a < b ? -1 : 1)))
  return account
}

/**
 * Collects what a running transaction touches: message targets as they start, created
 * addresses as they finish, and at the end the journal's access list, which it starts
 * reporting when the transaction's first message begins (runTx clears it before that).
 */
function watchTouches(vm: VM, touched: TouchedState): () => void {
  const events = vm.evm.events!
  const journal = vm.evm.journal
  const open: { message: Message; create: boolean }[] = []
  const before = (message: Message) => {
    if (message.depth === 0) journal.startReportingAccessList()
    open.push({ message, create: message.to === undefined })
    if (message.to) touched.touch(message.to.toString())
    if (message._codeAddress) touched.touch(message._codeAddress.toString())
  }
  const after = (result: EVMResult) => {
    const entry = open.pop()
    if (!entry) return
    if (entry.create) {
      const address = (result.createdAddress ?? entry.message.to)?.toString()
      if (address) {
        touched.touch(address)
        touched.created.add(address.toLowerCase() as PrefixedHexString)
      }
    }
    if (open.length === 0) {
      for (const [address, slots] of journal.accessList ?? []) touched.touch(`0x${address}`, slots)
    }
  }
  events.on('beforeMessage', before)
  events.on('afterMessage', after)
  return () => {
    events.off('beforeMessage', before)
    events.off('afterMessage', after)
  }
}
