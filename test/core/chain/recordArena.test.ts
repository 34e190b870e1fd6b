/**
 * Block records packed into shared slabs (issue 21): every record reads back as written, whether
 * its slab is in memory or was spilled to disk; a record already in a shared buffer is left where
 * it is; nothing handed out is ever written over.
 */
import { expect, test } from 'vitest'
import { placeOf, RecordArena } from '../../../src/core/chain/recordArena.ts'

const record = (n: number, length = 100) => Uint8Array.from({ length }, (_, i) => (n * 7 + i) & 255)

test('records share slabs, read back the same from their place', () => {
  const arena = new RecordArena(false, 1024)
  const views = Array.from({ length: 30 }, (_, n) => {
    const view = arena.allocate(100)
    view.set(record(n))
    return view
  })
  // Ten 100-byte records to a 1 KiB slab: three slabs for thirty.
  expect(new Set(views.map((view) => view.buffer)).size).toBe(3)
  views.forEach((view, n) => {
    const { slab, offset, length } = placeOf(view)
    expect(slab.view(offset, length)).toEqual(record(n))
  })
  expect(arena.spilledBytes).toBe(0)
})

test('a record longer than a slab gets its own buffer', () => {
  const arena = new RecordArena(false, 1024)
  const small = arena.allocate(100)
  const large = arena.allocate(2000)
  expect(large.buffer.byteLength).toBe(2000)
  expect(small.buffer).not.toBe(large.buffer)
})

test('hold copies a record that has its buffer to itself, and leaves a view into a shared one where it is', () => {
  const arena = new RecordArena(false, 1024)
  const own = record(1)
  const held = arena.hold(own)
  expect(held).not.toBe(own)
  expect(held).toEqual(own)
  expect(held.buffer.byteLength).toBe(1024)
  const image = new Uint8Array(500)
  const view = image.subarray(100, 200)
  expect(arena.hold(view)).toBe(view)
  const { slab, offset } = placeOf(view)
  image.set(record(2), 100)
  expect(slab.view(offset, 100)).toEqual(record(2))
})

test('with spill, full slabs leave memory and read back from the file, the most recently read kept', () => {
  const arena = new RecordArena(true, 1024)
  const places = Array.from({ length: 200 }, (_, n) => {
    const view = arena.allocate(100)
    view.set(record(n))
    return placeOf(view)
  })
  // Nineteen full slabs of ten records spilled; the twentieth is still being filled.
  expect(arena.spilledBytes).toBe(19 * 1000)
  expect(places[0].slab.bytes).toBeUndefined()
  expect(places[199].slab.bytes).toBeDefined()
  places.forEach(({ slab, offset, length }, n) => expect(slab.view(offset, length)).toEqual(record(n)))
  // Read back, then dropped again beyond the last eight read.
  const resident = new Set(places.filter((place) => place.slab.bytes !== undefined).map((place) => place.slab))
  expect(resident.size).toBe(9)
  arena.close()
})

test('without a spill, nothing is written anywhere', () => {
  const arena = new RecordArena(false, 1024)
  for (let n = 0; n < 50; n++) arena.allocate(100).set(record(n))
  expect(arena.spilledBytes).toBe(0)
})
