import { readFileSync } from 'node:fs'
import { expect, test } from 'vitest'
import { methods } from '../src/core/rpc/methods/index.ts'

test("the README's method table lists exactly the methods the node serves", () => {
  const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8')
  const table = readme.slice(readme.indexOf('## Methods'), readme.indexOf('## JSON-RPC rules'))
  const documented = [...table.matchAll(/^\| `([a-z0-9]+_[A-Za-z0-9_]+)` \|/gm)].map((m) => m[1])
  expect(documented.sort()).toEqual(Object.keys(methods).sort())
})
