/**
 * An esbuild app. esbuild does not follow `new Worker(new URL(…))`, so the app copies the
 * prebuilt node worker with `npx pagenode init <dir> --worker` and names it in startNode's
 * `worker` option, as the README says. Served as static files, run in Chromium.
 */
import { afterAll, beforeAll, expect, test } from 'vitest'
import { appScript, EXPECTED_RESULT, INDEX_HTML } from './support/app.ts'
import { closeBrowser } from './support/browser.ts'
import { createConsumer, stopConsumerProcesses, type Consumer } from './support/consumer.ts'
import { buildAndOpen, closeStaticServers } from './support/staticApp.ts'

let app: Consumer

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
  await closeStaticServers()
  await closeBrowser()
  await stopConsumerProcesses()
})

test('esbuild bundles the app; the worker copied by init --worker runs the node in Chromium', async () => {
  const report = await buildAndOpen(app, 'out', ['--worker'])
  expect(report.result).toEqual(EXPECTED_RESULT)
  expect(report.errors).toEqual([])
})
