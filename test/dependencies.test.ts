import { readFileSync } from 'node:fs'
import { expect, test } from 'vitest'

// Dev-only tools (web3.js) may carry old copies of their own; what ships must have exactly one.
test('the runtime has one copy of each @ethereumjs package, at the exact pinned version', () => {
  const lock = JSON.parse(readFileSync(new URL('../package-lock.json', import.meta.url), 'utf8'))
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'))
  const copies = new Map<string, string[]>()
  for (const [path, entry] of Object.entries<{ version: string; dev?: boolean }>(lock.packages)) {
    if (entry.dev) continue
    const name = path.match(/node_modules\/(@ethereumjs\/[^/]+)$/)?.[1]
    if (name) copies.set(name, [...(copies.get(name) ?? []), `${path}@${entry.version}`])
  }
  for (const [name, version] of Object.entries<string>(pkg.dependencies)) {
    if (!name.startsWith('@ethereumjs/')) continue
    expect(version, `${name} is pinned exactly`).toMatch(/^\d+\.\d+\.\d+$/)
    expect(copies.get(name)).toEqual([`node_modules/${name}@${version}`])
  }
  for (const [name, paths] of copies) expect(paths, name).toHaveLength(1)
})
