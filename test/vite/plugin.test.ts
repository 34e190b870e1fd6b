/**
 * `pagenode/vite`: the dev server serves /pagenode-sw.js, a build emits it, and the package
 * export loads in plain Node (as a consumer's vite.config does).
 */
import { execFile } from 'node:child_process'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { build, createServer } from 'vite'
import { afterEach, expect, test } from 'vitest'
import pagenode from '../../src/vite/plugin.ts'
import { buildServiceWorkerScript } from '../../src/vite/serviceWorkerScript.ts'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
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
  const server = await createServer({ root, configFile: false, logLevel: 'silent', plugins: [pagenode()], server: { port: 0, host: '127.0.0.1' } })
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
  await build({ root, configFile: false, logLevel: 'silent', plugins: [pagenode()], build: { outDir } })
  expect(await readFile(join(outDir, 'pagenode-sw.js'), 'utf8')).toBe(await buildServiceWorkerScript())
})

test("'pagenode/vite' loads in plain Node, as a consumer's vite.config imports it", async () => {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['--input-type=module', '-e', "const m = await import('pagenode/vite'); console.log(typeof m.default, m.default().name)"],
    { cwd: ROOT },
  )
  expect(stdout.trim()).toBe('function pagenode')
})
