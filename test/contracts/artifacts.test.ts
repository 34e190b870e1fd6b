import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, test } from 'vitest'
import { compileContracts } from './compile.mjs'
import artifacts from './artifacts.json' with { type: 'json' }

test('committed artifacts are what the pinned solc makes of the sources', () => {
  const dir = import.meta.dirname
  const sources = Object.fromEntries(
    readdirSync(dir).filter((f) => f.endsWith('.sol')).map((f) => [f, readFileSync(join(dir, f), 'utf8')]),
  )
  expect(compileContracts(sources)).toEqual(artifacts)
}, 60_000)
