import { describe, expect, test } from 'vitest'
import { PackedNodes, packNodes, packNodesTransient, packZeros, unpackNodes, unpackZeros } from '../../../src/core/store/packing.ts'
import { decodeSegment, encodeSegment, readSegment, storedBlockSegment, storedNodeSegment } from '../../../src/core/store/segments.ts'

const bytes = (...values: number[]) => Uint8Array.from(values)

describe('store packing', () => {
  test('trie nodes round-trip, hex keys as 32 bytes and any other key as text', () => {
    const nodes = new Map<string, Uint8Array>([
      ['9af2b9da57b011bc1452f2db8022a4b072b5d566bb5d11d3fddde402ab6ab5f2', bytes(1, 2, 3)],
      ['preimage:892e06ec47a693fe7f47e7d589ef05f3636fc36bb6173e9161d7df04129b56a8', new Uint8Array(20).fill(7)],
      ['ABCDEF', new Uint8Array(0)],
      ['0x12', new Uint8Array(300).fill(9)],
      ['ü-key ✓', bytes(0)],
    ])
    const packed = packNodes(nodes)
    expect(new Map(unpackNodes(packed))).toEqual(nodes)
    // 1 kind byte + 32 key bytes + 1 length byte + 3 value bytes for the first entry.
    expect(packed.subarray(0, 37)).toEqual(Uint8Array.from([0, ...Buffer.from('9af2b9da57b011bc1452f2db8022a4b072b5d566bb5d11d3fddde402ab6ab5f2', 'hex'), 3, 1, 2, 3]))
  })

  test('a transient packing is the same bytes, in one buffer the next packing overwrites', () => {
    const first = new Map([['9af2b9da57b011bc1452f2db8022a4b072b5d566bb5d11d3fddde402ab6ab5f2', bytes(1, 2, 3)], ['c-code', bytes(4)]])
    const second = new Map([['1af2b9da57b011bc1452f2db8022a4b072b5d566bb5d11d3fddde402ab6ab5f2', bytes(9, 9, 9)]])
    const view = packNodesTransient(first)
    expect(view).toEqual(packNodes(first))
    const next = packNodesTransient(second)
    expect(next).toEqual(packNodes(second))
    expect(next.buffer).toBe(view.buffer)
    // A large one is written whole; the buffer it grew to is not kept for the next.
    const large = new Map(Array.from({ length: 40_000 }, (_, i): [string, Uint8Array] => [i.toString(16).padStart(64, '0'), new Uint8Array(40).fill(i & 255)]))
    expect(new Map(unpackNodes(packNodesTransient(large)))).toEqual(large)
    expect(packNodesTransient(first).buffer.byteLength).toBeLessThan(1024 * 1024)
  })

  test('zero runs are counted, and a record stored unpacked (an RLP list) reads as it is', () => {
    const cases = [
      new Uint8Array(0),
      bytes(0xf9, 1, 2),
      new Uint8Array(512),
      Uint8Array.from([0xf9, ...new Uint8Array(256), 5, 0, 0, 0, 6, ...new Uint8Array(300), 7]),
      Uint8Array.from({ length: 2000 }, (_, i) => (i % 97 < 60 ? 0 : i & 0xff)),
    ]
    for (const original of cases) expect(unpackZeros(packZeros(original))).toEqual(original)
    expect(packZeros(Uint8Array.from([0xf9, ...new Uint8Array(512), 1])).length).toBeLessThan(12)
    const legacy = Uint8Array.from([0xf9, 0, 0, 0, 0, 1])
    expect(unpackZeros(legacy)).toBe(legacy)
  })

  test('packed node records are read where they lie: every key found, any other key not', () => {
    const key = (i: number) => i.toString(16).padStart(8, '0').repeat(8)
    const first = new Map<string, Uint8Array>(Array.from({ length: 300 }, (_, i) => [key(i), bytes(i & 0xff, 1)]))
    const second = new Map<string, Uint8Array>([
      [key(7), bytes(7, 1)], // the same node in two records
      // Keys sharing their first four bytes (the table's hash) are told apart by the rest.
      ['00000007' + 'ff'.repeat(28), bytes(42)],
      ['preimage:abc', bytes(9, 9)],
    ])
    const packed = new PackedNodes([packNodes(first), packNodes(second)])
    expect(packed.size).toBe(302)
    for (const [k, v] of first) expect(packed.get(k)).toEqual(v)
    expect(packed.get('00000007' + 'ff'.repeat(28))).toEqual(bytes(42))
    expect(packed.get('preimage:abc')).toEqual(bytes(9, 9))
    expect(packed.get(key(300))).toBeUndefined()
    expect(packed.get('not a key')).toBeUndefined()
  })

  const segmentBlocks = [
    { number: 0, hash: new Uint8Array(32).fill(1), record: bytes(0xc1, 0x80) },
    { number: 300, hash: new Uint8Array(32).fill(2), record: new Uint8Array([...new Uint8Array(200).fill(5), ...new Uint8Array(300)]) },
  ]
  const segmentNodes = [packNodes(new Map([['ab'.repeat(32), bytes(1)]])), packNodes(new Map([['cd'.repeat(32), bytes(2)]]))]
  const nodesOfSegment = new Map([['ab'.repeat(32), bytes(1)], ['cd'.repeat(32), bytes(2)]])

  test('a segment holds blocks with their hashes and the merged node records', () => {
    const segment = decodeSegment(encodeSegment(segmentBlocks, segmentNodes))
    expect(segment.blocks).toEqual(segmentBlocks)
    expect(new Map(unpackNodes(segment.nodes))).toEqual(nodesOfSegment)
  })

  test('a node segment is stored deflated, a block segment as it is, and each is read back as it was', async () => {
    const nodes = await storedNodeSegment([...segmentNodes, packNodes(new Map([['ef'.repeat(32), new Uint8Array(400)]]))])
    if (!('deflated' in nodes)) throw new Error('a node segment is stored deflated')
    expect(nodes.deflated.length).toBeLessThan(200)
    expect(new Map(unpackNodes((await readSegment(nodes)).nodes))).toEqual(new Map([...nodesOfSegment, ['ef'.repeat(32), new Uint8Array(400)]]))
    const blocks = storedBlockSegment(segmentBlocks)
    expect((await readSegment(blocks)).blocks).toEqual(segmentBlocks)
  })

  test('a layout-3 segment (as it is, its block records zero-packed) is still read', async () => {
    const layout3 = encodeSegment(
      segmentBlocks.map((block) => ({ ...block, record: packZeros(block.record) })),
      segmentNodes,
    )
    const segment = await readSegment(layout3)
    expect(segment.blocks).toEqual(segmentBlocks)
    expect(new Map(unpackNodes(segment.nodes))).toEqual(nodesOfSegment)
  })

  test('a record or segment cut short is refused, whatever its last entry was', () => {
    const nodes = packNodes(new Map([['ab'.repeat(32), bytes(1, 2)], ['preimage:long text key', bytes(3)]]))
    for (const cut of [nodes.length - 1, 43, 35]) {
      expect(() => new PackedNodes([nodes.subarray(0, cut)]), `cut at ${cut}`).toThrow('packed record ends early')
    }
    const packedBlock = packZeros(new Uint8Array([7, ...new Uint8Array(300), 9]))
    expect(() => unpackZeros(packedBlock.subarray(0, packedBlock.length - 1))).toThrow('packed record ends early')
    const segment = encodeSegment(segmentBlocks, [])
    expect(() => decodeSegment(segment.subarray(0, 40))).toThrow('a stored segment ends early')
  })

  test('a damaged deflated segment is refused, not read as something else', async () => {
    await expect(readSegment({ deflated: bytes(1, 2, 3, 4, 5) })).rejects.toThrow()
  })
})
