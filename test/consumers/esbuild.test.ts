/**
 * An esbuild app. esbuild does not follow `new Worker(new URL(…))`, so the app copies the
 * prebuilt node worker with `npx pagenode init <dir> --worker` and names it in startNode's
 * `worker` option, as the README says. Served as static files, run in Chromium.
 */
import { copyFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { appScript, EXPECTED_RESULT, INDEX_HTML } from './support/app.ts'
import { closeBrowser, openConsumerPage } from './support/browser.ts'
import { createConsumer, stopConsumerProcesses, type Consumer } from './support/consumer.ts'
import { serveStatic } from './support/staticServer.ts'

let app: Consumer
let server: Awaited<ReturnType<typeof serveStatic>> | undefined

beforeAll(async () => {
  app = await createConsumer('esbuild', {
    'src/main.js': appScript(`{ worker: '/pagenode-worker/nodeWorker.js' }`),
    'index.html': INDEX_HTML,
    'build.mjs': `import { build } from 'esbuild'
await build({ entryPoints: ['src/main.js'], bundle: true, format: 'esm', outfile: 'out/main.js', minify: true, target: 'es2022' })
`,
  })
})

afterAll(async () => {
  await server?.close()
  await closeBrowser()
  await stopConsumerProcesses()
})

test('esbuild bundles the app; the worker copied by init --worker runs the node in Chromium', async () => {
  await app.run('node', ['build.mjs'])
  await app.run('npx', ['--no', '--', 'pagenode', 'init', 'out', '--worker'])
  await copyFile(join(app.dir, 'index.html'), join(app.dir, 'out', 'index.html'))
  server = await serveStatic(join(app.dir, 'out'))
  const report = await openConsumerPage(server.url)
  expect(report.result).toEqual(EXPECTED_RESULT)
  expect(report.errors).toEqual([])
})
