/**
 * Solidity libraries the playground's compiler can import, shipped with the site: every `.sol`
 * file of `@openzeppelin/contracts` and Hardhat's `console.sol` (the versions in package.json) at
 * `/libraries/<package>/<path>`, emitted into the build (so the offline service worker precaches
 * them with the rest) and served from node_modules by the dev server.
 */
import { readdir, readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { dirname, join, relative, sep } from 'node:path'
import type { Plugin } from 'vite'

/** Where the libraries are served, under the site's base. */
export const LIBRARIES_DIR = 'libraries'

/**
 * The packages shipped, and which of their files: all `.sol` files, or the ones listed (of the
 * `hardhat` package only `console.sol` is a library; the rest are its sample projects).
 */
const PACKAGES: { name: string; files?: string[] }[] = [{ name: '@openzeppelin/contracts' }, { name: 'hardhat', files: ['console.sol'] }]

const packageDir = (name: string): string => dirname(createRequire(import.meta.url).resolve(`${name}/package.json`))

const shipped = (name: string, path: string): boolean => {
  const files = PACKAGES.find((pkg) => pkg.name === name)?.files
  return files === undefined || files.includes(path)
}

async function solidityFiles(name: string): Promise<{ path: string; file: string }[]> {
  const dir = packageDir(name)
  const listed = PACKAGES.find((pkg) => pkg.name === name)?.files
  if (listed) return listed.map((inPackage) => ({ path: `${name}/${inPackage}`, file: join(dir, inPackage) }))
  const entries = await readdir(dir, { recursive: true, withFileTypes: true })
  return entries
    .filter((entry) => entry.isFile() && entry.name.endsWith('.sol'))
    .map((entry) => {
      const file = join(entry.parentPath, entry.name)
      return { path: `${name}/${relative(dir, file).split(sep).join('/')}`, file }
    })
}

export default function playgroundLibraries(): Plugin {
  return {
    name: 'playground-libraries',
    configureServer(server) {
      server.middlewares.use((request, response, next) => {
        const url = (request.url ?? '').split('?')[0]
        const prefix = `/${LIBRARIES_DIR}/`
        const name = PACKAGES.find((pkg) => url.startsWith(`${prefix}${pkg.name}/`))?.name
        if (!name || !url.endsWith('.sol') || url.includes('..')) return next()
        const inPackage = url.slice(prefix.length + name.length + 1)
        if (!shipped(name, inPackage)) return next()
        readFile(join(packageDir(name), inPackage)).then(
          (content) => {
            response.setHeader('content-type', 'text/plain; charset=utf-8')
            response.end(content)
          },
          () => next(),
        )
      })
    },
    async generateBundle() {
      for (const { name } of PACKAGES) {
        for (const { path, file } of await solidityFiles(name)) {
          this.emitFile({ type: 'asset', fileName: `${LIBRARIES_DIR}/${path}`, source: await readFile(file) })
        }
      }
    },
  }
}
