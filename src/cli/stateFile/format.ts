import { crc32 } from 'node:zlib'
import { RLP } from '@ethereumjs/rlp'
import { bigIntToUnpaddedBytes, bytesToBigInt } from '@ethereumjs/util'
import type { ChainCommit } from '../../core/index.ts'

/**
 * The state file: a header, then commit records, each exactly one `Store.commit` of the node,
 * and, after a clean close, the close mark.
 *
 *   file   = MAGIC (15 bytes) · format version (1 byte) · record* · closeMark?
 *   record = payload length (u32 BE) · crc32(payload) (u32 BE) · crc32(first 8 bytes) (u32 BE)
 *            · payload · COMMIT_MARK (4 bytes, format 2)
 *   closeMark = CLOSED_LENGTH (u32 BE) · 0 (u32) · crc32(first 8 bytes) (u32 BE)
 *   payload = RLP [meta, dropAbove, nodes, blocks, poolAdded, poolRemoved, settings, fork]
 *     meta      = [schemaVersion, chainId, genesisHash, headNumber]
 *     dropAbove = [] when absent, [number] when present (0 and "absent" must differ)
 *     nodes     = [[key, value]…]       blocks = [[number, bytes]…]
 *     poolAdded = [[seq, entry]…]       poolRemoved = [seq…]      settings = [] or [bytes]
 *     fork      = [[key, value]…]       (a forked chain's fork entries: core/fork/forkState.ts)
 *   (format 1: no commit mark, no close mark, payloads of the first four fields only; format 2:
 *   no fork field. Format 3 is refused by older versions, which would drop a fork's entries and
 *   misread its state.)
 *
 * Replaying the records in order rebuilds the chain. Appends only ever touch the end of the file,
 * so the only damage a crash can do is a torn last record: a proper prefix of a record at the
 * very end (or a record-sized run of zeros, where a file system extended the file before its
 * data landed). Anything else is damage, and reported with where it is:
 *
 * - The header checksum guards the length: a damaged length is not mistaken for a torn tail.
 * - A whole record (its length fits in the file) whose payload fails its checksum is damage, even
 *   the last one, when its commit mark is there: a torn write leaves no mark after its payload.
 * - A file cut short somewhere else looks like a torn tail by its bytes. What tells them apart is
 *   how the last pagenode left it (fileStore.ts): a clean close appends the close mark and removes
 *   its lock; a crash leaves its lock. So a file without the close mark is accepted only after a
 *   crash, and then its torn tail is cut off (it was never acknowledged).
 */
export const MAGIC = new TextEncoder().encode('pagenode-state\n')
export const FORMAT_VERSION = 3
export const FILE_HEADER_BYTES = MAGIC.length + 1
export const RECORD_HEADER_BYTES = 12
/** After each payload (format 2): its bytes were all written. */
export const COMMIT_MARK = Uint8Array.of(0x50, 0x4e, 0x43, 0x0a)
/** The length field of the close mark: no record is this long. */
const CLOSED_LENGTH = 0xffffffff

export function fileHeader(): Uint8Array {
  const header = new Uint8Array(FILE_HEADER_BYTES)
  header.set(MAGIC)
  header[MAGIC.length] = FORMAT_VERSION
  return header
}

const utf8 = new TextEncoder()
const text = new TextDecoder('utf-8', { fatal: true })

export function encodeRecord(commit: ChainCommit): Uint8Array {
  const { meta, nodes, blocks, dropAbove, pool, settings, fork } = commit
  const payload = RLP.encode([
    [
      bigIntToUnpaddedBytes(BigInt(meta.schemaVersion)),
      bigIntToUnpaddedBytes(BigInt(meta.chainId)),
      // Keys and the genesis hash are opaque strings to a store: kept as their UTF-8 bytes.
      utf8.encode(meta.genesisHash),
      bigIntToUnpaddedBytes(meta.headNumber),
    ],
    dropAbove === undefined ? [] : [bigIntToUnpaddedBytes(dropAbove)],
    [...nodes].map(([key, value]) => [utf8.encode(key), value]),
    blocks.map(({ number, bytes }) => [bigIntToUnpaddedBytes(number), bytes]),
    (pool?.added ?? []).map(([seq, bytes]) => [bigIntToUnpaddedBytes(BigInt(seq)), bytes]),
    (pool?.removed ?? []).map((seq) => bigIntToUnpaddedBytes(BigInt(seq))),
    settings ? [settings] : [],
    [...(fork ?? [])].map(([key, value]) => [utf8.encode(key), value]),
  ])
  const record = new Uint8Array(RECORD_HEADER_BYTES + payload.length + COMMIT_MARK.length)
  const view = new DataView(record.buffer)
  view.setUint32(0, payload.length)
  view.setUint32(4, crc32(payload))
  view.setUint32(8, crc32(record.subarray(0, 8)))
  record.set(payload, RECORD_HEADER_BYTES)
  record.set(COMMIT_MARK, RECORD_HEADER_BYTES + payload.length)
  return record
}

/** What a clean close appends: the file ends here, whole. */
export function closeMark(): Uint8Array {
  const mark = new Uint8Array(RECORD_HEADER_BYTES)
  const view = new DataView(mark.buffer)
  view.setUint32(0, CLOSED_LENGTH)
  view.setUint32(8, crc32(mark.subarray(0, 8)))
  return mark
}

/** A state file that cannot be read as one: not ours, from a newer pagenode, or damaged. */
export class StateFileError extends Error {
  override name = 'StateFileError'
}

export interface ScannedFile {
  version: number
  /** The commits of the intact records, up to the first damage if any. */
  commits: ChainCommit[]
  /** Where the last intact record ends: appends continue here (the close mark, if any, after it). */
  validBytes: number
  /** Bytes after the last intact record that may be an append a crash interrupted. */
  tornBytes: number
  /** The file ends with the close mark: the last pagenode closed it cleanly. */
  closed: boolean
  /** Damage (never a torn append), with where it is; `commits` stop before it. */
  damage?: string
}

/**
 * Decodes a whole state file. A tail that may be a torn append is reported in `tornBytes`, and
 * damage in `damage`, with the records before it: whether the tail may be cut, the file refused,
 * or its valid prefix recovered is the caller's call (fileStore.ts). Only a file that is not a
 * state file of a version this one reads throws.
 */
export function scanStateFile(file: Uint8Array): ScannedFile {
  const version = checkFileHeader(file)
  const mark = version >= 2 ? COMMIT_MARK.length : 0
  const view = new DataView(file.buffer, file.byteOffset, file.byteLength)
  const commits: ChainCommit[] = []
  let offset = FILE_HEADER_BYTES
  const result = (fields: Partial<ScannedFile>): ScannedFile => ({ version, commits, validBytes: offset, tornBytes: 0, closed: false, ...fields })
  const damaged = (what: string) => result({ damage: `damaged: ${what} at byte ${offset}` })
  while (offset < file.length) {
    const rest = file.length - offset
    const torn = result({ tornBytes: rest })
    // A header cut short can only be the last thing written.
    if (rest < RECORD_HEADER_BYTES) return torn
    const headerIntact = view.getUint32(offset + 8) === crc32(file.subarray(offset, offset + 8))
    if (!headerIntact) {
      // Some file systems extend a file before its data lands: a crash leaves zeros.
      if (file.subarray(offset).every((byte) => byte === 0)) return torn
      return damaged('a record header fails its checksum')
    }
    const length = view.getUint32(offset)
    if (length === CLOSED_LENGTH && version >= 2) {
      if (rest !== RECORD_HEADER_BYTES) return damaged('records follow the close mark')
      return result({ closed: true })
    }
    const end = offset + RECORD_HEADER_BYTES + length + mark
    if (end > file.length) return torn
    const payload = file.subarray(offset + RECORD_HEADER_BYTES, end - mark)
    const marked = mark === 0 || COMMIT_MARK.every((byte, i) => file[end - mark + i] === byte)
    if (view.getUint32(offset + 4) !== crc32(payload) || !marked) {
      // A write that landed partly (the rest zeros, no commit mark) at the very end: torn. A
      // whole record with its mark that fails its checksum is damage, wherever it is.
      const unfinished = version >= 2 ? !marked && file.subarray(end - mark, end).every((byte) => byte === 0) : true
      if (end === file.length && unfinished) return torn
      return damaged(marked ? 'a record fails its checksum' : 'a record lacks its commit mark')
    }
    try {
      commits.push(decodePayload(payload))
    } catch (error) {
      // The checksum matched, so these are the bytes that were written: a bug, not a crash.
      return damaged(`a record does not decode (${error instanceof Error ? error.message : String(error)})`)
    }
    offset = end
  }
  return result({})
}

function checkFileHeader(file: Uint8Array): number {
  const magic = file.subarray(0, MAGIC.length)
  if (file.length < FILE_HEADER_BYTES || !magic.every((byte, i) => byte === MAGIC[i])) {
    throw new StateFileError('not a pagenode state file')
  }
  const version = file[MAGIC.length]
  if (version > FORMAT_VERSION) {
    throw new StateFileError(
      `written by a newer pagenode (state format ${version}; this version reads ${FORMAT_VERSION}): upgrade pagenode or use another file`,
    )
  }
  return version
}

type Bytes = Uint8Array

function decodePayload(payload: Uint8Array): ChainCommit {
  // Format 1 payloads end after the blocks, format 2 payloads after the settings.
  const [meta, dropAbove, nodes, blocks, poolAdded = [], poolRemoved = [], settings = [], fork = []] = RLP.decode(payload) as unknown as [
    [Bytes, Bytes, Bytes, Bytes],
    Bytes[],
    [Bytes, Bytes][],
    [Bytes, Bytes][],
    [Bytes, Bytes][]?,
    Bytes[]?,
    Bytes[]?,
    [Bytes, Bytes][]?,
  ]
  const [schemaVersion, chainId, genesisHash, headNumber] = meta
  return {
    meta: {
      schemaVersion: Number(bytesToBigInt(schemaVersion)),
      chainId: Number(bytesToBigInt(chainId)),
      genesisHash: text.decode(genesisHash),
      headNumber: bytesToBigInt(headNumber),
    },
    dropAbove: dropAbove.length === 0 ? undefined : bytesToBigInt(dropAbove[0]),
    nodes: new Map(nodes.map(([key, value]) => [text.decode(key), value])),
    blocks: blocks.map(([number, bytes]) => ({ number: bytesToBigInt(number), bytes })),
    pool:
      poolAdded.length + poolRemoved.length === 0
        ? undefined
        : { added: poolAdded.map(([seq, bytes]) => [Number(bytesToBigInt(seq)), bytes]), removed: poolRemoved.map((seq) => Number(bytesToBigInt(seq))) },
    settings: settings[0],
    fork: fork.length === 0 ? undefined : new Map(fork.map(([key, value]) => [text.decode(key), value])),
  }
}
