import type { BlockHeader } from '@ethereumjs/block'

/**
 * A header's RLP, made once per header: a mined block's is asked for by its size (blockSize) and
 * by its record (store/blockCodec.ts), and `serialize()` converts every field again each time.
 * Headers are frozen once made (createBlockHeader's default): their bytes never change.
 */
export function headerBytes(header: BlockHeader): Uint8Array {
  let bytes = serialized.get(header)
  if (!bytes) serialized.set(header, (bytes = header.serialize()))
  return bytes
}

const serialized = new WeakMap<BlockHeader, Uint8Array>()
