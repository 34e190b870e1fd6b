/**
 * deflate-raw through the platform's CompressionStream (every browser pagenode runs in, and
 * Node.js): native zlib, nothing bundled. Segments of a chain deflate well: a trie node written
 * again differs from its previous version in one child hash, and the previous version is a few
 * kilobytes back (measured: 256 blocks of transfers, nodes 764 KB → 204 KB, blocks 134 → 66 KB).
 */
export function deflate(bytes: Uint8Array): Promise<Uint8Array> {
  return through(new CompressionStream('deflate-raw'), bytes)
}

export function inflate(bytes: Uint8Array): Promise<Uint8Array> {
  return through(new DecompressionStream('deflate-raw'), bytes)
}

async function through(stream: CompressionStream | DecompressionStream, bytes: Uint8Array): Promise<Uint8Array> {
  const writer = stream.writable.getWriter()
  // Not awaited: the readable side is read below, and a write resolves only once it is read.
  void writer.write(bytes as Uint8Array<ArrayBuffer>).catch(() => {})
  void writer.close().catch(() => {})
  return new Uint8Array(await new Response(stream.readable).arrayBuffer())
}
