import type { MerklePatriciaTrie } from '@ethereumjs/mpt'
import { RLP } from '@ethereumjs/rlp'
import type { MerkleStateManager } from '@ethereumjs/statemanager'
import {
  Account,
  bigIntToHex,
  createAccountFromRLP,
  createAddressFromString,
  hexToBytes,
  setLengthLeft,
  type PrefixedHexString,
} from '@ethereumjs/util'
import { bytesToHex } from '../hexText.ts'
import { preimageOf } from '../exec/preimages.ts'
import type { Node } from '../node.ts'
import { InternalError, InvalidParamsError } from '../errors.ts'
import { optionalField, ParamError, parseAddress, parseData, parseObject, uintOf, wordOf } from '../rpc/params.ts'
import { gunzip, gzip, isGzip } from './gzip.ts'
import { editState } from './stateEdits.ts'

/**
 * anvil_dumpState / anvil_loadState. The dump is anvil's: `0x` + hex of the gzip of a JSON
 * object laid out as anvil's SerializableState, of which this node fills the accounts:
 *
 *   { "accounts": { "<address>": { "nonce": <number>, "balance": "<hex quantity>",
 *                                  "code": "<hex bytes>",
 *                                  "storage": { "<32-byte hex slot>": "<32-byte hex value>" } } },
 *     "best_block_number": <number>, "blocks": [], "transactions": [] }
 *
 * Every account of the head's state is in it (dev-node edits included), addresses and slots in
 * ascending order. Blocks and transactions are not: a dump carries state, not history.
 */
export interface DumpedAccount {
  nonce: number | PrefixedHexString
  balance: PrefixedHexString
  code: PrefixedHexString
  storage: Record<PrefixedHexString, PrefixedHexString>
}

export interface StateDump {
  accounts: Record<PrefixedHexString, DumpedAccount>
  best_block_number: number
  blocks: unknown[]
  transactions: unknown[]
}

/** The head's whole state as anvil_dumpState returns it. */
export async function dumpState(node: Node): Promise<PrefixedHexString> {
  const dump = await stateDump(node)
  return bytesToHex(await gzip(new TextEncoder().encode(JSON.stringify(dump))))
}

/** The head's whole state, as JSON (what dumpState compresses). */
export async function stateDump(node: Node): Promise<StateDump> {
  const head = node.chain.head
  const sandbox = await node.sandbox(head)
  const accounts = await sandbox.read(async (vm) => {
    const sm = vm.stateManager as MerkleStateManager
    // The account trie, walked: its keys are keccak(address), named back by the preimages.
    const trie = (sm as unknown as { _trie: MerklePatriciaTrie })._trie
    const { values } = await trie.getValueMap()
    const found: [PrefixedHexString, DumpedAccount][] = []
    for (const [keyHash, rlp] of Object.entries(values)) {
      const address = bytesToHex(await preimage(node, keyHash as PrefixedHexString))
      const account = createAccountFromRLP(hexToBytes(prefixed(rlp)))
      const where = createAddressFromString(address)
      const storage: [PrefixedHexString, PrefixedHexString][] = []
      for (const [slotHash, value] of Object.entries(await sm.dumpStorage(where))) {
        const slot = setLengthLeft(await preimage(node, prefixed(slotHash)), 32)
        storage.push([bytesToHex(slot), bytesToHex(setLengthLeft(RLP.decode(hexToBytes(prefixed(value))) as Uint8Array, 32))])
      }
      found.push([
        address,
        {
          nonce: account.nonce <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(account.nonce) : bigIntToHex(account.nonce),
          balance: bigIntToHex(account.balance),
          code: bytesToHex(await sm.getCode(where)),
          storage: Object.fromEntries(storage.sort(([a], [b]) => (a < b ? -1 : 1))),
        },
      ])
    }
    return Object.fromEntries(found.sort(([a], [b]) => (a < b ? -1 : 1)))
  })
  return { accounts, best_block_number: Number(head.number), blocks: [], transactions: [] }
}

async function preimage(node: Node, hash: PrefixedHexString): Promise<Uint8Array> {
  const key = await preimageOf(node.state.nodes, hash)
  // Every key the miner's state writes is recorded (exec/preimages.ts); a chain stored by a
  // pagenode before schema 3 has none for its older accounts.
  if (!key) throw new InternalError(`cannot dump the state: no address or slot is known for trie key ${hash} (the chain was written by an older pagenode)`)
  return key
}

const prefixed = (hex: string): PrefixedHexString => (hex.startsWith('0x') ? hex : `0x${hex}`) as PrefixedHexString

/**
 * anvil_loadState: merges a dump into the head's state, as anvil does. Each account in it is
 * set (nonce, balance, code) and its slots written; accounts and slots it does not name stay.
 * Accepts the gzip form anvil_dumpState gives and plain JSON bytes. The whole dump is checked
 * before anything is written, and then written as one edit (dev/stateEdits.ts).
 */
export async function loadState(node: Node, bytes: Uint8Array): Promise<void> {
  const accounts = parseStateDump(await decodeDumpBytes(bytes))
  await editState(node, async (sm) => {
    for (const { address, nonce, balance, code, storage } of accounts) {
      const where = createAddressFromString(address)
      const existing = await sm.getAccount(where)
      await sm.putAccount(where, new Account(nonce, balance, existing?.storageRoot))
      await sm.putCode(where, code)
      for (const [slot, value] of storage) await sm.putStorage(where, slot, value)
    }
  })
}

interface LoadedAccount {
  address: PrefixedHexString
  nonce: bigint
  balance: bigint
  code: Uint8Array
  storage: [Uint8Array, Uint8Array][]
}

/** A loadState argument that is not a state dump: -32602 naming what is wrong. */
function malformed(detail: string): InvalidParamsError {
  return new InvalidParamsError(`invalid argument 0 (state): not a state dump: ${detail}`)
}

async function decodeDumpBytes(bytes: Uint8Array): Promise<unknown> {
  let json = bytes
  if (isGzip(bytes)) {
    try {
      json = await gunzip(bytes)
    } catch (error) {
      throw malformed(`the gzip data is damaged (${error instanceof Error ? error.message : String(error)})`)
    }
  }
  let text: string
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(json)
  } catch {
    throw malformed('expected gzip-compressed or plain JSON (anvil_dumpState output), got other bytes')
  }
  try {
    return JSON.parse(text)
  } catch (error) {
    throw malformed(`invalid JSON (${error instanceof Error ? error.message : String(error)})`)
  }
}

function parseStateDump(value: unknown): LoadedAccount[] {
  try {
    const dump = parseObject(value)
    const accounts = within('accounts', () => parseObject(dump.accounts))
    return Object.entries(accounts).map(([key, record]) =>
      within(`accounts.${key}`, () => {
        const address = parseAddress(key)
        const entry = parseObject(record)
        const storage = optionalField(entry, 'storage', parseObject) ?? {}
        return {
          address,
          nonce: optionalField(entry, 'nonce', parseUint) ?? 0n,
          balance: optionalField(entry, 'balance', parseUint) ?? 0n,
          code: optionalField(entry, 'code', parseData) ?? new Uint8Array(),
          storage: Object.entries(storage).map(([slot, word]) =>
            within(`storage.${slot}`, (): [Uint8Array, Uint8Array] => [parseWord(slot), parseWord(word)]),
          ),
        }
      }),
    )
  } catch (error) {
    if (error instanceof ParamError) throw malformed(error.message)
    throw error
  }
}

/** Runs a parse, naming where in the dump it failed. */
function within<T>(where: string, parse: () => T): T {
  try {
    return parse()
  } catch (error) {
    if (error instanceof ParamError) throw new ParamError(`${where}: ${error.message}`)
    throw error
  }
}

/** A JSON number or a hex quantity (anvil writes nonces as numbers, balances as hex). */
function parseUint(value: unknown): bigint {
  const uint = uintOf(value)
  if (uint === undefined) throw new ParamError(`expected a non-negative integer (a JSON number or 0x-prefixed hex), got ${JSON.stringify(value)}`)
  return uint
}

/** A storage slot or value: hex of at most 32 bytes, left-padded. */
function parseWord(value: unknown): Uint8Array {
  const word = wordOf(value)
  if (word === undefined) throw new ParamError(`expected hex of at most 32 bytes, got ${JSON.stringify(value)}`)
  return word
}
