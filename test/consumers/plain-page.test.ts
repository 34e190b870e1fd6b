/**
 * A plain HTML page with no bundler: it imports the client straight from node_modules (the client
 * has no bare imports) and talks to the node with ethers' browser build. The default worker is
 * found beside the client, and so are the chunks it loads later (the system contracts at genesis,
 * tracing on first use). And when the worker is missing, startNode says so and how to fix it.
 */
import { copyFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { closeBrowser, openConsumerPage } from './support/browser.ts'
import { createConsumer, stopConsumerProcesses, type Consumer } from './support/consumer.ts'
import { REPO } from './support/paths.ts'
import { serveStatic, type Misanswer } from './support/staticServer.ts'

const PAGE = `<!doctype html>
<html><head><meta charset="utf-8"><title>plain</title><link rel="icon" href="data:,"></head><body>
<script src="./ethers.umd.min.js"></script>
<script type="module">
import { startNode } from './node_modules/pagenode/dist/client/index.js'
try {
  const node = await startNode({ name: 'plain-' + crypto.randomUUID(), serviceWorker: location.search === '?csp' ? false : undefined })
  const provider = new ethers.BrowserProvider(node.provider)
  const signer = await provider.getSigner(0)
  const to = (await provider.getSigner(1)).address
  const sent = await signer.sendTransaction({ to, value: ethers.parseEther('1') })
  const receipt = await sent.wait()
  const overHttp = new ethers.JsonRpcProvider(new URL('/rpc', location.href).href, undefined, { staticNetwork: true })
  const balance = await overHttp.getBalance(to)
  // Tracing is a chunk the worker loads on first use: it must be beside the prebuilt worker.
  const trace = await node.provider.request({ method: 'debug_traceTransaction', params: [sent.hash, { tracer: 'callTracer' }] })
  window.__result = { status: receipt.status, balance: balance.toString(), traced: trace.type }
} catch (error) {
  window.__result = { failed: String(error && error.message || error) }
}
</script></body></html>
`

/** The same page under a Content-Security-Policy that allows no workers. */
const CSP_PAGE = PAGE.replace('<head>', '<head><meta http-equiv="Content-Security-Policy" content="worker-src \'none\'">').replace("'./", "'/").replace('"./', '"/')

let app: Consumer
const servers: { close(): Promise<void> }[] = []

beforeAll(async () => {
  app = await createConsumer('plain-page', { 'index.html': PAGE, 'csp/index.html': CSP_PAGE })
  await copyFile(join(REPO, 'node_modules', 'ethers', 'dist', 'ethers.umd.min.js'), join(app.dir, 'ethers.umd.min.js'))
  await app.run('npx', ['--no', '--', 'pagenode', 'init', '.'])
})

afterAll(async () => {
  await Promise.all(servers.map((server) => server.close()))
  await closeBrowser()
  await stopConsumerProcesses()
})

test('a page without a bundler imports the client from node_modules and runs the node', async () => {
  const server = await serveStatic(app.dir)
  servers.push(server)
  const report = await openConsumerPage(server.url)
  expect(report.result).toEqual({ status: 1, balance: String(10_001n * 10n ** 18n), traced: 'call' })
  expect(report.errors).toEqual([])
})

const WORKER_PATH = '/node_modules/pagenode/dist/worker/nodeWorker.js'

/** The page on a server that answers the node worker's path with `instead`; what startNode threw. */
async function failedStart(instead: Misanswer | undefined, page = ''): Promise<string> {
  const server = await serveStatic(app.dir, (path) => (path === WORKER_PATH ? instead : undefined))
  servers.push(server)
  const report = await openConsumerPage(`${server.url}${page}`)
  expect(report.result.failed, 'startNode rejected').toBeDefined()
  return String(report.result.failed)
}

test('a node worker the server does not have: startNode names the URL, the 404 and the fix', async () => {
  const failed = await failedStart({ status: 404, type: 'text/plain', body: 'not found' })
  expect(failed).toMatch(/the node worker script http:\/\/127\.0\.0\.1:\d+\/node_modules\/pagenode\/dist\/worker\/nodeWorker\.js was not found \(HTTP 404\)/)
  expect(failed).toContain('pagenode init <public dir> --worker')
})

test("a server's fallback page in place of the worker: startNode names the content type", async () => {
  const failed = await failedStart({ status: 200, type: 'text/html', body: '<!doctype html><p>app shell</p>' })
  expect(failed).toMatch(/nodeWorker\.js is served as text\/html, not JavaScript/)
})

test('a worker script that does not parse: startNode says it loaded but failed to run', async () => {
  const failed = await failedStart({ status: 200, type: 'text/javascript', body: 'export const = ;' })
  expect(failed).toMatch(/nodeWorker\.js loaded but failed to run \(a syntax error/)
})

test("a Content-Security-Policy that refuses workers: startNode says so", async () => {
  const failed = await failedStart(undefined, 'csp/?csp')
  expect(failed).toMatch(/Content-Security-Policy of this page refuses the node worker \(worker-src\)/)
})
