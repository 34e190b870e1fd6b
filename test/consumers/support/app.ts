/**
 * The page script every bundled consumer app runs: starts pagenode, sends a transfer through the
 * provider with viem, reads its receipt back over the HTTP endpoint the service worker serves and
 * traces it (code the worker loads on first use, from a chunk of the app's build), then reports on
 * `window.__result` (or `window.__error`).
 */
export function appScript(startOptions = '{}'): string {
  return `import { startNode } from 'pagenode'
import { createPublicClient, createWalletClient, custom, http, parseEther } from 'viem'
import { zksyncInMemoryNode } from 'viem/chains'

async function main() {
  const node = await startNode({ name: 'consumer-' + crypto.randomUUID(), ...${startOptions} })
  const [from, to] = await node.provider.request({ method: 'eth_accounts' })
  const wallet = createWalletClient({ account: from, chain: zksyncInMemoryNode, transport: custom(node.provider) })
  const hash = await wallet.sendTransaction({ to, value: parseEther('1') })
  const overHttp = createPublicClient({ chain: zksyncInMemoryNode, transport: http(new URL('/rpc', location.href).href) })
  const receipt = await overHttp.waitForTransactionReceipt({ hash, pollingInterval: 50 })
  const balance = await overHttp.getBalance({ address: to })
  // A rarely called method: its code is a chunk the worker loads on this first call.
  const trace = await node.provider.request({ method: 'debug_traceTransaction', params: [hash, { tracer: 'callTracer' }] })
  window.__result = { status: receipt.status, blockNumber: String(receipt.blockNumber), balance: String(balance), role: node.role, traced: trace.type }
}
main().catch((error) => { window.__error = String(error && error.stack || error) })
`
}

export const INDEX_HTML = `<!doctype html>
<html><head><meta charset="utf-8"><title>consumer</title><link rel="icon" href="data:,"></head>
<body><script type="module" src="./main.js"></script></body></html>
`

/** What a successful run reports: the transfer mined, seen over HTTP, 1 ETH more for the receiver, traced as a call. */
export const EXPECTED_RESULT = { status: 'success', blockNumber: '1', balance: String(10_001n * 10n ** 18n), role: 'leader', traced: 'call' }
