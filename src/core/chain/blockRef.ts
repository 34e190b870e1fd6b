import type { PrefixedHexString } from '@ethereumjs/util'

/** A block parameter after parsing (hex number, tag, or an EIP-1898 object). */
export type BlockRef =
  | { kind: 'tag'; tag: BlockTag }
  | { kind: 'number'; number: bigint }
  | { kind: 'hash'; hash: PrefixedHexString; requireCanonical: boolean }

export const BLOCK_TAGS = ['latest', 'earliest', 'pending', 'safe', 'finalized', 'committed'] as const
export type BlockTag = (typeof BLOCK_TAGS)[number]

/** `pending`: what the next block would do, where a block's context matters (calls, estimates). */
export const isPending = (ref: BlockRef): boolean => ref.kind === 'tag' && ref.tag === 'pending'
