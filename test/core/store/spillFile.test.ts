/**
 * A memory store's sealed bytes moved to a temporary file (issue 21): read back as written, and
 * the file is gone from the directory from the start, so nothing is left behind however the
 * process ends.
 */
import { readdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { expect, test } from 'vitest'
import { SpillFile } from '../../../src/core/store/spillFile.ts'

const spillFiles = () => readdirSync(tmpdir()).filter((name) => name.startsWith(`pagenode-${process.pid}-`))

test('bytes written are read back where they were written; the file is never in the directory', () => {
  const before = spillFiles()
  const file = SpillFile.open({})!
  expect(file).toBeDefined()
  expect(spillFiles()).toEqual(before)
  const first = Uint8Array.from({ length: 70_000 }, (_, i) => i & 255)
  const second = Uint8Array.from({ length: 300 }, (_, i) => 255 - (i & 255))
  expect(file.write(first)).toBe(0)
  expect(file.write(second)).toBe(70_000)
  expect(file.size).toBe(70_300)
  expect(file.read(70_000, 300)).toEqual(second)
  expect(file.read(1000, 5000)).toEqual(first.subarray(1000, 6000))
  expect(() => file.read(70_000, 301)).toThrow('spill file ends at 70300, 1 bytes short')

  file.truncate()
  expect(file.size).toBe(0)
  expect(file.write(second)).toBe(0)
  expect(file.read(0, 300)).toEqual(second)
  file.close()
  file.close()
  expect(() => file.read(0, 1)).toThrow()
})
