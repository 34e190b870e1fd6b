/**
 * `pagenode/vite`: the dev server serves /pagenode-sw.js, a build emits it, and it sets what the
 * worker needs. (The packed plugin, with its prebuilt script, is tested in test/consumers/.)
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build, createServer } from 'vite'
import { afterEach, expect, test } from 'vitest'
import pagenode from '../../src/vite/plugin.ts'
import { buildServiceWorkerScript } from '../../scripts/build/serviceWorkerScript.ts'

const dirs: string[] = []

afterEach(async () => {
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })))
})

/** A one-page site in a temp folder. */
async function site(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'pagenode-vite-'))
  dirs.push(dir)
  await writeFile(join(dir, 'index.html'), '<!doctype html><script type="module" src="./main.js"></script>')
  await writeFile(join(dir, 'main.js'), 'console.log("hi")')
  return dir
}

test('the dev server serves the script at the site root, and leaves other paths alone', async () => {
  const root = await site()
  const server = await createServer({ root, configFile: false, logLevel: 'silent', plugins: [pagenode({ serviceWorkerScript: buildServiceWorkerScript })], server: { port: 0, host: '127.0.0.1' } })
  await server.listen()
  try {
    const url = server.resolvedUrls!.local[0]
    const response = await fetch(`${url}pagenode-sw.js?protocol=1&name=x&base=y`)
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toMatch(/^text\/javascript/)
    expect(response.headers.get('cache-control')).toBe('no-cache')
    expect(await response.text()).toBe(await buildServiceWorkerScript())
    expect((await fetch(`${url}main.js`)).status).toBe(200)
  } finally {
    await server.close()
  }
})

test('a build emits the script next to index.html', async () => {
  const root = await site()
  const outDir = join(root, 'dist')
  await build({ root, configFile: false, logLevel: 'silent', plugins: [pagenode({ serviceWorkerScript: buildServiceWorkerScript })], build: { outDir } })
  expect(await readFile(join(outDir, 'pagenode-sw.js'), 'utf8')).toBe(await buildServiceWorkerScript())
})

test('keeps pagenode out of pre-bundling, pre-bundles what pagenode/testing imports where installed, and builds workers as ES modules', async () => {
  const config = async (root: string) => {
    const server = await createServer({ root, configFile: false, logLevel: 'silent', plugins: [pagenode()], server: { port: 0, host: '127.0.0.1' } })
    await server.close()
    return server.config
  }
  // This repository has viem and ethers installed; a bare site in a temp folder has nothing.
  const here = await config(fileURLToPath(new URL('../..', import.meta.url)))
  expect(here.optimizeDeps.exclude).toContain('pagenode')
  expect(here.optimizeDeps.include).toEqual(expect.arrayContaining(['viem', 'viem/accounts', 'viem/chains', 'ethers']))
  expect(here.worker.format).toBe('es')
  const bare = await config(await site())
  expect(bare.optimizeDeps.include ?? []).not.toContain('viem')
  expect(bare.optimizeDeps.exclude).toContain('pagenode')
})
