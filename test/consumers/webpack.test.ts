/**
 * A webpack 5 app with no pagenode-specific configuration: webpack follows the client's
 * `new Worker(new URL('…', import.meta.url))` and bundles the node worker; `npx pagenode init`
 * puts the service worker script in the output. Served as static files, run in Chromium.
 */
import { afterAll, beforeAll, expect, test } from 'vitest'
import { appScript, EXPECTED_RESULT, INDEX_HTML } from './support/app.ts'
import { closeBrowser } from './support/browser.ts'
import { createConsumer, stopConsumerProcesses, type Consumer } from './support/consumer.ts'
import { buildAndOpen, closeStaticServers } from './support/staticApp.ts'

let app: Consumer

beforeAll(async () => {
  app = await createConsumer('webpack', {
    'src/main.js': appScript(),
    'index.html': INDEX_HTML,
    // The webpack API, as webpack-cli would call it with this config.
    'build.mjs': `import webpack from 'webpack'
const compiler = webpack({
  mode: 'production',
  entry: './src/main.js',
  output: { path: new URL('./dist', import.meta.url).pathname, filename: 'main.js', clean: true },
})
compiler.run((error, stats) => {
  if (error || stats.hasErrors()) {
    console.error(error ?? stats.toString({ all: false, errors: true }))
    process.exit(1)
  }
  console.log(stats.toString({ all: false, assets: true }))
  compiler.close(() => {})
})
`,
  })
})

afterAll(async () => {
  await closeStaticServers()
  await closeBrowser()
  await stopConsumerProcesses()
})

test('webpack 5 bundles the node worker from the standard form; the app runs in Chromium', async () => {
  const report = await buildAndOpen(app, 'dist')
  expect(report.result).toEqual(EXPECTED_RESULT)
  expect(report.errors).toEqual([])
})
