/**
 * The Solidity libraries the playground ships for import (demo/vite/librariesPlugin.ts), read from
 * node_modules as the site serves them: `@openzeppelin/contracts/…` and `hardhat/console.sol`.
 */
import { readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'

const require = createRequire(import.meta.url)
const PACKAGES = ['@openzeppelin/contracts', 'hardhat']

/** A library file by its import path; rejects (ENOENT) for a file its package lacks. */
export function readLibrary(path: string): Promise<string> {
  const name = PACKAGES.find((pkg) => path.startsWith(`${pkg}/`))
  if (!name) return Promise.reject(new Error(`${path}: not in a shipped package`))
  return readFile(join(dirname(require.resolve(`${name}/package.json`)), path.slice(name.length + 1)), 'utf8')
}
