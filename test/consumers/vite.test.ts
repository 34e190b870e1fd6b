/**
 * A Vite app with the README's setup (the pagenode/vite plugin, nothing else): the dev server,
 * then `vite build` served by `vite preview`, each in Chromium.
 */
import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { appScript, EXPECTED_RESULT, INDEX_HTML } from './support/app.ts'
import { closeBrowser, openConsumerPage } from './support/browser.ts'
import { createConsumer, stopConsumerProcesses, type Consumer } from './support/consumer.ts'
import { freePort } from '../support/freePort.ts'

let app: Consumer

beforeAll(async () => {
  app = await createConsumer('vite', {
    'index.html': INDEX_HTML,
    'main.js': appScript(),
    'vite.config.js': `import { defineConfig } from 'vite'\nimport pagenode from 'pagenode/vite'\n\nexport default defineConfig({ plugins: [pagenode()] })\n`,
  })
})

afterAll(async () => {
  await closeBrowser()
  await stopConsumerProcesses()
})

test('the dev server runs the node: a transfer over the provider, its receipt over HTTP', async () => {
  const port = await freePort()
  await app.start('vite', ['--host', '127.0.0.1', '--port', String(port), '--strictPort'], /Local:\s+(http:\S+)/)
  const report = await openConsumerPage(`http://127.0.0.1:${port}/`)
  expect(report.result).toEqual(EXPECTED_RESULT)
  expect(report.errors).toEqual([])
})

test('vite build + preview runs the node, and its node worker is the size of the one pagenode ships', async () => {
  await app.run('vite', ['build'])
  const port = await freePort()
  await app.start('vite', ['preview', '--host', '127.0.0.1', '--port', String(port), '--strictPort'], /Local:\s+(http:\S+)/)
  const report = await openConsumerPage(`http://127.0.0.1:${port}/`)
  expect(report.result).toEqual(EXPECTED_RESULT)
  expect(report.errors).toEqual([])

  // The worker's own code: its entry with the chunks it imports statically (pagenode ships the
  // code it shares with the recovery worker as a chunk; Vite inlines it). The WebAssembly crypto
  // chunks, loaded after start, are left out of both.
  const assets = join(app.dir, 'dist', 'assets')
  const built = (await readdir(assets)).find((file) => /^nodeWorker-.*\.js$/.test(file))
  expect(built, 'a node worker file in dist/assets').toBeDefined()
  const consumer = await workerCodeSize(assets, built!)
  const shipped = await workerCodeSize(join(app.dir, 'node_modules', 'pagenode', 'dist', 'worker'), 'nodeWorker.js')
  console.log(`node worker, gzip: ${consumer} B in the Vite app's build, ${shipped} B as shipped`)
  expect(consumer / shipped).toBeGreaterThan(0.9)
  expect(consumer / shipped).toBeLessThan(1.1)
})

/** Gzip bytes of a worker entry and the files it imports statically (`from"./x.js"`), once each. */
async function workerCodeSize(dir: string, entry: string, seen = new Set<string>()): Promise<number> {
  if (seen.has(entry)) return 0
  seen.add(entry)
  const text = await readFile(join(dir, entry))
  let size = gzipSync(text).length
  for (const [, file] of text.toString().matchAll(/(?:^|[;\s}])import\s*(?:[\w{}$,*\s]+from\s*)?["']\.\/([^"']+\.js)["']/g)) size += await workerCodeSize(dir, file, seen)
  return size
}
