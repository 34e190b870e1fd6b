import type * as NodeZlib from 'node:zlib'
import { nodeBuiltin } from './nodeBuiltin.ts'

/**
 * deflate-raw through the platform: Node.js's zlib where the node runs in Node.js (reached with
 * `process.getBuiltinModule`, so no bundler sees an import of it), else the browser's
 * CompressionStream: native zlib either way, nothing bundled. Segments of a chain deflate well: a
 * trie node written again differs from its previous version in one child hash, and the previous
 * version is a few kilobytes back (measured: 256 blocks of transfers, nodes 764 KB → 204 KB,
 * blocks 134 → 66 KB).
 *
 * Node.js's zlib matters for the memory stores' archive (nodeArchive.ts), which inflates a chunk
 * for each old trie node it reads: a CompressionStream through a Response took ~1.2 ms for
 * 64 KB, zlib's inflateRawSync a tenth of that. Synchronous both ways, on the node's thread: on
 * libuv's thread pool, each thread's allocator kept the memory zlib had freed, and 10,000 blocks
 * grew the process's RSS by 133 MB instead of 82 (the archive deflates 64 KB at a time, ~0.5 ms).
 */
const zlib = nodeBuiltin<typeof NodeZlib>('node:zlib')

/**
 * zlib's level in Node.js (the browser's CompressionStream has none): 3, not the default 6. On
 * 156 archive chunks of 3,000 ERC-20 blocks' nodes, 0.33 against 0.50 ms a chunk (a chunk seals
 * every ~19 blocks, on the acknowledgement's path), for 1.4% more bytes (2.82× against 2.86×).
 */
const LEVEL = 3

export function deflate(bytes: Uint8Array): Promise<Uint8Array> {
  if (zlib) {
    const out = zlib.deflateRawSync(bytes, { level: LEVEL })
    return Promise.resolve(new Uint8Array(out.buffer, out.byteOffset, out.byteLength))
  }
  return through(new CompressionStream('deflate-raw'), bytes)
}

export function inflate(bytes: Uint8Array): Promise<Uint8Array> {
  if (zlib) {
    const out = zlib.inflateRawSync(bytes)
    return Promise.resolve(new Uint8Array(out.buffer, out.byteOffset, out.byteLength))
  }
  return through(new DecompressionStream('deflate-raw'), bytes)
}

async function through(stream: CompressionStream | DecompressionStream, bytes: Uint8Array): Promise<Uint8Array> {
  const writer = stream.writable.getWriter()
  // Not awaited: the readable side is read below, and a write resolves only once it is read.
  void writer.write(bytes as Uint8Array<ArrayBuffer>).catch(() => {})
  void writer.close().catch(() => {})
  return new Uint8Array(await new Response(stream.readable).arrayBuffer())
}
