import { readdirSync, readFileSync } from 'node:fs'
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

// The CLI runs from the installed package (npx pagenode): a bare import it makes at run time
// that is not a dependency would resolve in this repository and fail in a user's project.
test('every package the CLI and the core import at run time is a dependency of the package', () => {
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'))
  const declared = new Set([...Object.keys(pkg.dependencies), ...Object.keys(pkg.peerDependencies ?? {})])
  const imported = new Set<string>()
  for (const dir of ['cli', 'core']) {
    const folder = new URL(`../src/${dir}/`, import.meta.url)
    for (const file of readdirSync(folder, { recursive: true, encoding: 'utf8' }).filter((name) => name.endsWith('.ts'))) {
      const text = readFileSync(new URL(file, folder), 'utf8')
      // `import type` is erased; `node:` modules are Node's own.
      for (const [, name] of text.matchAll(/^import (?!type )[^'"]*from '([^.'][^']*)'/gm)) {
        if (name.startsWith('node:')) continue
        imported.add(name.startsWith('@') ? name.split('/').slice(0, 2).join('/') : name.split('/')[0])
      }
    }
  }
  expect(imported.has('ws')).toBe(true)
  // The IndexedDB store (idb) is bundled into the node worker, never loaded by the CLI or pagenode/core.
  expect([...imported].filter((name) => !declared.has(name) && name !== 'idb').sort()).toEqual([])
})
