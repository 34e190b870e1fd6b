import { crc32 } from 'node:zlib'
import { RLP } from '@ethereumjs/rlp'
import { bigIntToUnpaddedBytes, bytesToBigInt } from '@ethereumjs/util'
import type { ChainCommit } from '../../core/index.ts'

/**
 * The state file: a header, then commit records, each exactly one `Store.commit` of the node.
 *
 *   file   = MAGIC (15 bytes) · format version (1 byte) · record*
 *   record = payload length (u32 BE) · crc32(payload) (u32 BE) · crc32(first 8 bytes) (u32 BE)
 *            · payload
 *   payload = RLP [meta, dropAbove, nodes, blocks]
 *     meta      = [schemaVersion, chainId, genesisHash, headNumber]
 *     dropAbove = [] when absent, [number] when present (0 and "absent" must differ)
 *     nodes     = [[key, value]…]       blocks = [[number, bytes]…]
 *
 * Replaying the records in order rebuilds the chain. Appends only ever touch the end of the file,
 * so the only damage a crash can do is a torn last record, which the checksums detect. The header
 * checksum guards the length: a damaged length in the middle is reported, not mistaken for a
 * torn tail (which would silently drop every later record).
 */
export const MAGIC = new TextEncoder().encode('pagenode-state\n')
export const FORMAT_VERSION = 1
export const FILE_HEADER_BYTES = MAGIC.length + 1
export const RECORD_HEADER_BYTES = 12

export function fileHeader(): Uint8Array {
  const header = new Uint8Array(FILE_HEADER_BYTES)
  header.set(MAGIC)
  header[MAGIC.length] = FORMAT_VERSION
  return header
}

const utf8 = new TextEncoder()
const text = new TextDecoder('utf-8', { fatal: true })

export function encodeRecord(commit: ChainCommit): Uint8Array {
  const { meta, nodes, blocks, dropAbove } = commit
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
  ])
  const record = new Uint8Array(RECORD_HEADER_BYTES + payload.length)
  const view = new DataView(record.buffer)
  view.setUint32(0, payload.length)
  view.setUint32(4, crc32(payload))
  view.setUint32(8, crc32(record.subarray(0, 8)))
  record.set(payload, RECORD_HEADER_BYTES)
  return record
}

/** A state file that cannot be read as one: not ours, from a newer pagenode, or damaged. */
export class StateFileError extends Error {
  override name = 'StateFileError'
}

export interface ScannedFile {
  commits: ChainCommit[]
  /** Where the last intact record ends: appends continue here. */
  validBytes: number
  /** Bytes after `validBytes`: an append that a crash interrupted (never acknowledged). */
  tornBytes: number
}

/**
 * Decodes a whole state file. A torn last record is reported in `tornBytes`, not as an error:
 * its commit never resolved, so nothing acknowledged is in it. Anything else that does not
 * check out is damage, and an error.
 */
export function scanStateFile(file: Uint8Array): ScannedFile {
  checkFileHeader(file)
  const view = new DataView(file.buffer, file.byteOffset, file.byteLength)
  const commits: ChainCommit[] = []
  let offset = FILE_HEADER_BYTES
  while (offset < file.length) {
    const rest = file.length - offset
    const torn = { commits, validBytes: offset, tornBytes: rest }
    // A header cut short can only be the last thing written.
    if (rest < RECORD_HEADER_BYTES) return torn
    const headerIntact = view.getUint32(offset + 8) === crc32(file.subarray(offset, offset + 8))
    if (!headerIntact) {
      // Some file systems extend a file before its data lands: a crash leaves zeros.
      if (file.subarray(offset).every((byte) => byte === 0)) return torn
      throw damaged(offset, 'a record header fails its checksum')
    }
    const length = view.getUint32(offset)
    const end = offset + RECORD_HEADER_BYTES + length
    if (end > file.length) return torn
    const payload = file.subarray(offset + RECORD_HEADER_BYTES, end)
    if (view.getUint32(offset + 4) !== crc32(payload)) {
      if (end === file.length) return torn
      throw damaged(offset, 'a record fails its checksum')
    }
    try {
      commits.push(decodePayload(payload))
    } catch (error) {
      // The checksum matched, so these are the bytes that were written: a bug, not a crash.
      throw damaged(offset, `a record does not decode (${error instanceof Error ? error.message : String(error)})`)
    }
    offset = end
  }
  return { commits, validBytes: offset, tornBytes: 0 }
}

function checkFileHeader(file: Uint8Array): void {
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
}

function damaged(offset: number, what: string): StateFileError {
  return new StateFileError(`damaged: ${what} at byte ${offset}`)
}

type Bytes = Uint8Array

function decodePayload(payload: Uint8Array): ChainCommit {
  const [meta, dropAbove, nodes, blocks] = RLP.decode(payload) as unknown as [
    [Bytes, Bytes, Bytes, Bytes],
    Bytes[],
    [Bytes, Bytes][],
    [Bytes, Bytes][],
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
  }
}
