import type { BlockHeader } from '@ethereumjs/block'
import { rlpEncode } from '../store/rlpWrite.ts'
import { keccak256 } from './fastCrypto.ts'

/**
 * A header's RLP, made once per header: a mined block's is asked for by its hash, its size
 * (blockSize) and its record (store/blockCodec.ts), and `serialize()` converts every field and
 * copies every level again each time (~15 KB of garbage per call). Headers are frozen once made
 * (createBlockHeader's default): their bytes never change. The same bytes as `serialize()`.
 */
export function headerBytes(header: BlockHeader): Uint8Array {
  let bytes = serialized.get(header)
  if (!bytes) serialized.set(header, (bytes = rlpEncode(header.raw())))
  return bytes
}

/**
 * The block hash, keccak256 of `headerBytes`: what `header.hash()` answers, from the bytes made
 * once (the miner asks for it as the block's hash, and again as the next block's parent hash).
 */
export function headerHash(header: BlockHeader): Uint8Array {
  let hash = hashes.get(header)
  if (!hash) hashes.set(header, (hash = keccak256(headerBytes(header))))
  return hash
}

const serialized = new WeakMap<BlockHeader, Uint8Array>()
const hashes = new WeakMap<BlockHeader, Uint8Array>()
