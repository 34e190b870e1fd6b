/**
 * The sources a compilation needs: the file in the editor and, transitively, every file it
 * imports. solc's own import callback is synchronous and its worker has nothing to read from, so
 * the page gathers the files first (fetching libraries the site ships) and hands solc all of them
 * in its standard JSON input, where an import resolves by its path.
 */

/**
 * What the site ships for import (demo/vite/librariesPlugin.ts): a folder (ending in `/`) and
 * everything under it, or one file.
 */
export const LIBRARIES = ['@openzeppelin/contracts/', 'hardhat/console.sol']

const isLibrary = (path: string): boolean => LIBRARIES.some((library) => (library.endsWith('/') ? path.startsWith(library) : path === library))

/** The import paths a Solidity source names: `import "x";`, `import {A} from "x";`, `import * as X from "x";`. */
export function importPaths(source: string): string[] {
  const withoutComments = source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/[^\n]*/g, '')
  return [...withoutComments.matchAll(/\bimport\s+(?:[^"';]*?\bfrom\s+)?["']([^"']+)["']/g)].map((match) => match[1])
}

/** An import path as solc names the file: relative ones (`./x.sol`, `../y.sol`) against the importing file. */
export function resolveImport(from: string, path: string): string {
  if (!path.startsWith('./') && !path.startsWith('../')) return path
  const parts = from.split('/').slice(0, -1)
  for (const part of path.split('/')) {
    if (part === '..') parts.pop()
    else if (part !== '.') parts.push(part)
  }
  return parts.join('/')
}

export class ImportError extends Error {}

/**
 * Every source `fileName` needs, keyed by solc's file names. `readOwn` gives a file of the user's
 * workspace by its name, `readLibrary` fetches a library file by its path; an import of anything
 * else is refused, naming the file and what can be imported.
 */
export async function gatherSources(
  fileName: string,
  source: string,
  readLibrary: (path: string) => Promise<string>,
  readOwn: (path: string) => string | undefined = () => undefined,
): Promise<Record<string, { content: string }>> {
  const sources: Record<string, { content: string }> = { [fileName]: { content: source } }
  const queue = importPaths(source).map((path) => ({ from: fileName, path: resolveImport(fileName, path) }))
  while (queue.length > 0) {
    const { from, path } = queue.shift()!
    if (sources[path]) continue
    const own = readOwn(path)
    if (own !== undefined) {
      sources[path] = { content: own }
      for (const next of importPaths(own)) queue.push({ from: path, path: resolveImport(path, next) })
      continue
    }
    if (!isLibrary(path)) {
      throw new ImportError(`${from} imports ${path}: not a file the playground has. It ships ${LIBRARIES.map((library) => (library.endsWith('/') ? `${library}…` : library)).join(', ')} for import, besides the files of your workspace.`)
    }
    let content: string
    try {
      content = await readLibrary(path)
    } catch (error) {
      throw new ImportError(`${from} imports ${path}, which could not be read: ${error instanceof Error ? error.message : String(error)}`, { cause: error })
    }
    sources[path] = { content }
    for (const next of importPaths(content)) queue.push({ from: path, path: resolveImport(path, next) })
  }
  return sources
}
