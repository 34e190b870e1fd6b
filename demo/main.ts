/**
 * The interim playground: the node runs in its worker (startNode), keeps its chain in IndexedDB
 * across reloads, and a small console sends JSON-RPC calls to its EIP-1193 provider. Replaced by
 * the real playground as the remaining pieces land.
 */
import { ServiceWorkerError, startNode, type PageNode } from '../src/client/index.ts'
import { parseParams } from './params.ts'

declare global {
  interface Window {
    /** The page's node, for poking at it from the devtools console. */
    pagenode?: PageNode
  }
}

interface Call {
  method: string
  params: unknown[]
}

/** What the console shows for one finished call. */
type Outcome =
  | { ok: true; result: unknown; ms: number }
  | { ok: false; error: { code?: number; message: string; data?: unknown }; ms: number }

const HISTORY_LIMIT = 50

/** Example params per method; `{a0}`/`{a1}` become the first dev accounts once known. */
const EXAMPLES: Record<string, unknown[]> = {
  eth_chainId: [],
  eth_blockNumber: [],
  eth_getBalance: ['{a0}', 'latest'],
  eth_accounts: [],
  eth_getBlockByNumber: ['latest', false],
  eth_call: [{ from: '{a0}', to: '{a1}', data: '0x' }, 'latest'],
  eth_estimateGas: [{ from: '{a0}', to: '{a1}', value: '0xde0b6b3a7640000' }],
  eth_sendRawTransaction: ['0x'],
  eth_getLogs: [{ fromBlock: '0x0', toBlock: 'latest' }],
  eth_feeHistory: ['0x4', 'latest', [25, 75]],
  web3_clientVersion: [],
  net_version: [],
}

function byId<T extends HTMLElement>(id: string): T {
  const el = document.getElementById(id)
  if (!el) throw new Error(`demo/index.html lacks #${id}`)
  return el as T
}

const form = byId<HTMLFormElement>('console')
const methodInput = byId<HTMLInputElement>('method')
const methodList = byId<HTMLDataListElement>('methods')
const paramsInput = byId<HTMLTextAreaElement>('params')
const paramsError = byId<HTMLParagraphElement>('params-error')
const sendButton = byId<HTMLButtonElement>('send')
const responseBox = byId<HTMLDivElement>('response')
const historyList = byId<HTMLOListElement>('history')
const statusLine = byId<HTMLParagraphElement>('status')
const endpointLine = byId<HTMLParagraphElement>('endpoint')
const endpointUrls = byId<HTMLSpanElement>('endpoint-urls')

/**
 * Where the service worker answers HTTP JSON-RPC: the site's /rpc, and anvil-zksync's address
 * (viem's zksyncInMemoryNode), so a dApp or script configured for a local node works unmodified
 * from this origin with nothing listening there (DESIGN §3).
 */
const BASE_URLS = ['/rpc', 'http://localhost:8011', 'http://127.0.0.1:8011']

let node: PageNode | undefined
let accounts: string[] = []
let chainId: number | undefined
/** The params text we last filled in from EXAMPLES; user edits are never overwritten. */
let exampleText = paramsInput.value

for (const method of Object.keys(EXAMPLES)) {
  const option = document.createElement('option')
  option.value = method
  methodList.append(option)
}

function exampleFor(method: string): string | undefined {
  const example = EXAMPLES[method]
  if (!example) return undefined
  const text = JSON.stringify(example, null, example.length > 0 && typeof example[0] === 'object' ? 2 : 0)
  return text
    .replaceAll('"{a0}"', JSON.stringify(accounts[0] ?? '0x0000000000000000000000000000000000000000'))
    .replaceAll('"{a1}"', JSON.stringify(accounts[1] ?? '0x0000000000000000000000000000000000000000'))
}

function showParamsError(message: string | undefined): void {
  paramsError.textContent = message ?? ''
  paramsError.hidden = message === undefined
  if (message === undefined) paramsInput.removeAttribute('aria-invalid')
  else paramsInput.setAttribute('aria-invalid', 'true')
}

function toErrorObject(e: unknown): { code?: number; message: string; data?: unknown } {
  if (typeof e === 'object' && e !== null) {
    const { code, message, data } = e as { code?: unknown; message?: unknown; data?: unknown }
    return {
      ...(typeof code === 'number' ? { code } : {}),
      message: typeof message === 'string' ? message : String(e),
      ...(data !== undefined ? { data } : {}),
    }
  }
  return { message: String(e) }
}

async function run(call: Call): Promise<Outcome> {
  if (!node) throw new Error('node not ready')
  const started = performance.now()
  try {
    const result = await node.provider.request({ method: call.method, params: call.params })
    return { ok: true, result, ms: performance.now() - started }
  } catch (e) {
    return { ok: false, error: toErrorObject(e), ms: performance.now() - started }
  }
}

function showOutcome(call: Call, outcome: Outcome): void {
  const meta = document.createElement('p')
  meta.className = 'meta'
  const pre = document.createElement('pre')
  pre.tabIndex = 0
  const ms = `${outcome.ms.toFixed(1)} ms`
  if (outcome.ok) {
    meta.textContent = `${call.method} · ok · ${ms}`
    pre.textContent = JSON.stringify(outcome.result ?? null, null, 2)
  } else {
    const code = outcome.error.code === undefined ? 'error' : `error ${outcome.error.code}`
    meta.textContent = `${call.method} · ${code}: ${outcome.error.message} · ${ms}`
    pre.textContent = JSON.stringify(outcome.error, null, 2)
  }
  responseBox.dataset.state = outcome.ok ? 'ok' : 'error'
  responseBox.replaceChildren(meta, pre)
}

function addToHistory(call: Call, outcome: Outcome): void {
  const item = document.createElement('li')
  const button = document.createElement('button')
  button.type = 'button'
  button.className = outcome.ok ? 'ok' : 'error'
  const paramsText = JSON.stringify(call.params)
  const name = document.createElement('span')
  name.className = 'method'
  name.textContent = call.method
  const args = document.createElement('span')
  args.className = 'params'
  args.textContent = paramsText.length > 80 ? `${paramsText.slice(0, 79)}…` : paramsText
  const mark = document.createElement('span')
  mark.className = 'mark'
  mark.textContent = outcome.ok ? 'ok' : String(outcome.error.code ?? 'error')
  button.append(name, args, mark)
  button.title = 'Load this call into the console'
  button.addEventListener('click', () => {
    methodInput.value = call.method
    paramsInput.value = JSON.stringify(call.params, null, call.params.some((p) => typeof p === 'object') ? 2 : 0)
    exampleText = paramsInput.value
    showParamsError(undefined)
    paramsInput.focus()
  })
  item.append(button)
  historyList.prepend(item)
  while (historyList.children.length > HISTORY_LIMIT) historyList.lastElementChild?.remove()
}

async function refreshStatus(): Promise<void> {
  if (!node) return
  try {
    const block = (await node.provider.request({ method: 'eth_blockNumber', params: [] })) as string
    statusLine.textContent = `node ready · chain ${chainId ?? '?'} · block ${Number(BigInt(block))} · ${node.role}`
    statusLine.dataset.state = 'ready'
  } catch (e) {
    statusLine.textContent = `node ready · chain ${chainId ?? '?'} · block ? (${toErrorObject(e).message})`
  }
}

/**
 * The node with its HTTP endpoint; when the endpoint cannot be set up (no service workers in this
 * browser or window, a stale script on the site) the console still works, provider only, and the
 * page says why HTTP does not.
 */
async function startWithEndpoint(): Promise<PageNode> {
  try {
    const started = await startNode({ name: 'playground', baseUrls: BASE_URLS })
    showEndpoints(started.baseUrls)
    return started
  } catch (e) {
    if (!(e instanceof ServiceWorkerError)) throw e
    console.error(e)
    endpointLine.dataset.state = 'failed'
    endpointLine.textContent = `HTTP endpoint unavailable: ${e.message}`
    endpointLine.hidden = false
    return startNode({ name: 'playground', serviceWorker: false })
  }
}

function showEndpoints(urls: readonly string[]): void {
  endpointUrls.replaceChildren(
    ...urls.flatMap((url, i) => {
      const code = document.createElement('code')
      code.textContent = url
      return i === 0 ? [code] : [document.createTextNode(' · '), code]
    }),
  )
  endpointLine.dataset.state = 'ready'
  endpointLine.hidden = urls.length === 0
}

async function send(): Promise<void> {
  const method = methodInput.value.trim()
  if (method === '') {
    methodInput.focus()
    return
  }
  const parsed = parseParams(paramsInput.value)
  if ('error' in parsed) {
    showParamsError(parsed.error)
    paramsInput.focus()
    return
  }
  showParamsError(undefined)
  const call = { method, params: parsed.params }
  sendButton.disabled = true
  responseBox.setAttribute('aria-busy', 'true')
  try {
    const outcome = await run(call)
    showOutcome(call, outcome)
    addToHistory(call, outcome)
    await refreshStatus()
  } finally {
    responseBox.removeAttribute('aria-busy')
    sendButton.disabled = false
  }
}

form.addEventListener('submit', (event) => {
  event.preventDefault()
  if (!sendButton.disabled) void send()
})

paramsInput.addEventListener('keydown', (event) => {
  if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
    event.preventDefault()
    form.requestSubmit()
  }
})

paramsInput.addEventListener('input', () => showParamsError(undefined))

// Picking a known method fills in example params, unless the user has typed their own.
methodInput.addEventListener('input', () => {
  if (paramsInput.value !== exampleText) return
  const example = exampleFor(methodInput.value.trim())
  if (example !== undefined) {
    paramsInput.value = example
    exampleText = example
  }
})

async function start(): Promise<void> {
  try {
    node = await startWithEndpoint()
    window.pagenode = node
    node.provider.on('message', () => void refreshStatus())
    void node.provider.request({ method: 'eth_subscribe', params: ['newHeads'] })
    chainId = Number(BigInt((await node.provider.request({ method: 'eth_chainId', params: [] })) as string))
    accounts = (await node.provider.request({ method: 'eth_accounts', params: [] })) as string[]
    await refreshStatus()
    sendButton.disabled = false
  } catch (e) {
    statusLine.dataset.state = 'failed'
    statusLine.textContent = `node failed to start: ${toErrorObject(e).message}`
    console.error(e)
  }
}

void start()
