/**
 * RPC console: any method with JSON params, sent to the provider (or over HTTP through the
 * service worker, as any client would), the response or the JSON-RPC error, the same call as a
 * `fetch` and a `curl` command, and a history to reload calls from.
 */
import type { Panel } from '../panel.ts'
import type { Session } from '../session.ts'
import { isBusy, setBusy } from '../ui/busy.ts'
import { h } from '../ui/dom.ts'
import { toFailure, type RpcFailure } from '../ui/errors.ts'
import { parseParams } from './consoleParams.ts'

interface Call {
  method: string
  params: unknown[]
}

type Transport = 'provider' | 'http'

/** What the console shows for one finished call. */
type Outcome = { ok: true; result: unknown; ms: number } | { ok: false; error: RpcFailure; ms: number }

const HISTORY_LIMIT = 50

/** Example params per method; `{a0}`/`{a1}` become the first dev accounts. */
const EXAMPLES: Record<string, unknown[]> = {
  eth_chainId: [],
  eth_blockNumber: [],
  eth_accounts: [],
  eth_getBalance: ['{a0}', 'latest'],
  eth_getTransactionCount: ['{a0}', 'latest'],
  eth_getBlockByNumber: ['latest', false],
  eth_call: [{ from: '{a0}', to: '{a1}', data: '0x' }, 'latest'],
  eth_estimateGas: [{ from: '{a0}', to: '{a1}', value: '0xde0b6b3a7640000' }],
  eth_sendTransaction: [{ from: '{a0}', to: '{a1}', value: '0xde0b6b3a7640000' }],
  eth_sendRawTransaction: ['0x'],
  eth_getTransactionReceipt: ['0x'],
  eth_getLogs: [{ fromBlock: '0x0', toBlock: 'latest' }],
  eth_feeHistory: ['0x4', 'latest', [25, 75]],
  eth_gasPrice: [],
  zks_L1ChainId: [],
  zks_L1BatchNumber: [],
  zks_getL1BatchDetails: [1],
  zks_getBlockDetails: [1],
  zks_getBridgeContracts: [],
  zks_getMainContract: [],
  zks_getL2ToL1LogProof: ['0x'],
  zks_estimateFee: [{ from: '{a0}', to: '{a1}', value: '0x1' }],
  debug_traceTransaction: ['0x', { tracer: 'callTracer' }],
  debug_traceBlockByNumber: ['latest', { tracer: 'callTracer' }],
  evm_snapshot: [],
  evm_revert: ['0x1'],
  evm_mine: [],
  evm_increaseTime: [3600],
  anvil_setBalance: ['{a1}', '0x56bc75e2d63100000'],
  anvil_impersonateAccount: ['0x0000000000000000000000000000000000000001'],
  web3_clientVersion: [],
  net_version: [],
}

export const consolePanel: Panel = {
  id: 'console',
  title: 'RPC console',
  mount(root, session) {
    const accounts = session.accounts
    // Ids start with console-: the URL hash names panels (#send, #console), and an element whose
    // id is the hash becomes the page's focus starting point, so a bare id="send" here stole the
    // keyboard from the Send tab.
    const methodInput = h('input', { id: 'console-method', testid: 'method', name: 'method', list: 'console-methods', autocomplete: 'off', spellcheck: 'false', required: true, value: 'eth_blockNumber', 'aria-describedby': 'console-method-hint' })
    const methodList = h('datalist', { id: 'console-methods' }, ...Object.keys(EXAMPLES).map((method) => h('option', { value: method })))
    const paramsInput = h('textarea', { id: 'console-params', testid: 'params', name: 'params', rows: '5', spellcheck: 'false', 'aria-describedby': 'console-params-hint console-params-error' }, '[]')
    const paramsError = h('p', { id: 'console-params-error', testid: 'params-error', class: 'error', role: 'alert', hidden: true })
    const transportSelect = h(
      'select',
      { id: 'console-transport', testid: 'transport', name: 'transport' },
      h('option', { value: 'provider' }, 'EIP-1193 provider (this page)'),
      h('option', { value: 'http', disabled: session.endpoint === undefined }, `HTTP POST ${session.endpoint ?? '(no endpoint)'}`),
    )
    const sendButton = h('button', { id: 'console-send', testid: 'send', type: 'submit' }, 'Send')
    const responseBox = h('div', { id: 'console-response', testid: 'response', dataset: { state: 'idle' }, 'aria-live': 'polite' }, h('p', { class: 'meta' }, 'No request sent yet.'))
    const snippets = h('div', { testid: 'snippets', class: 'snippets' })
    const historyList = h('ol', { id: 'console-history', testid: 'history' })
    /** The params text we last filled in from EXAMPLES; user edits are never overwritten. */
    let exampleText = paramsInput.value

    const form = h(
      'form',
      { id: 'console-form', testid: 'console', 'aria-labelledby': 'console-title', novalidate: true },
      h('h2', { id: 'console-title' }, 'RPC console'),
      h('div', { class: 'field' }, h('label', { for: 'console-method' }, 'Method'), methodInput, methodList, h('p', { id: 'console-method-hint', class: 'hint' }, 'Enter sends. Known methods fill in example params.')),
      h(
        'div',
        { class: 'field' },
        h('label', { for: 'console-params' }, 'Params ', h('span', { class: 'hint' }, '(JSON array)')),
        paramsInput,
        h('p', { id: 'console-params-hint', class: 'hint' }, 'Ctrl+Enter sends. Empty means ', h('code', {}, '[]'), '.'),
        paramsError,
      ),
      h('div', { class: 'field' }, h('label', { for: 'console-transport' }, 'Send through'), transportSelect),
      h('div', { class: 'actions' }, sendButton),
    )

    root.append(
      form,
      h('section', { 'aria-labelledby': 'response-title' }, h('h2', { id: 'response-title' }, 'Response'), responseBox),
      h('section', { 'aria-labelledby': 'snippets-title' }, h('h2', { id: 'snippets-title' }, 'The same call over HTTP'), snippets),
      h('section', { 'aria-labelledby': 'history-title' }, h('h2', { id: 'history-title' }, 'History'), h('p', { class: 'hint' }, 'Select a call to load it into the console.'), historyList),
    )

    const exampleFor = (method: string): string | undefined => {
      const example = EXAMPLES[method]
      if (!example) return undefined
      return JSON.stringify(example, null, example.length > 0 && typeof example[0] === 'object' ? 2 : 0)
        .replaceAll('"{a0}"', JSON.stringify(accounts[0] ?? '0x0000000000000000000000000000000000000000'))
        .replaceAll('"{a1}"', JSON.stringify(accounts[1] ?? '0x0000000000000000000000000000000000000000'))
    }

    const showParamsError = (message: string | undefined) => {
      paramsError.textContent = message ?? ''
      paramsError.hidden = message === undefined
      if (message === undefined) paramsInput.removeAttribute('aria-invalid')
      else paramsInput.setAttribute('aria-invalid', 'true')
    }

    const showOutcome = (call: Call, outcome: Outcome, transport: Transport) => {
      const ms = `${outcome.ms.toFixed(1)} ms`
      const via = transport === 'http' ? ' · via HTTP' : ''
      const pre = h('pre', { tabindex: '0' })
      let meta: string
      if (outcome.ok) {
        meta = `${call.method} · ok · ${ms}${via}`
        pre.textContent = JSON.stringify(outcome.result ?? null, null, 2)
      } else {
        const code = outcome.error.code === undefined ? 'error' : `error ${outcome.error.code}`
        meta = `${call.method} · ${code}: ${outcome.error.message} · ${ms}${via}`
        pre.textContent = JSON.stringify(outcome.error, null, 2)
      }
      responseBox.dataset.state = outcome.ok ? 'ok' : 'error'
      responseBox.replaceChildren(h('p', { class: 'meta' }, meta), pre)
    }

    const showSnippets = (call: Call) => {
      const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: call.method, params: call.params })
      const fetchUrl = session.endpoint ?? `${location.origin}/rpc`
      const fetchText = `await (await fetch(${JSON.stringify(fetchUrl)}, {\n  method: 'POST',\n  headers: { 'content-type': 'application/json' },\n  body: ${JSON.stringify(body)},\n})).json()`
      const curlText = `curl -s http://127.0.0.1:8011 -H 'content-type: application/json' \\\n  --data '${body.replaceAll("'", "'\\''")}'`
      snippets.replaceChildren(
        h('h3', {}, 'fetch'),
        h('p', { class: 'hint' }, 'Runs in this page (or its devtools console): the service worker answers it.'),
        h('pre', { testid: 'fetch-snippet', tabindex: '0' }, fetchText),
        h('h3', {}, 'curl'),
        h('p', { class: 'hint' }, 'Against ', h('code', {}, 'npx pagenode'), ' on port 8011 (a terminal is outside the page, so its service worker cannot answer curl).'),
        h('pre', { testid: 'curl-snippet', tabindex: '0' }, curlText),
      )
    }

    const run = async (call: Call, transport: Transport): Promise<Outcome> => {
      const started = performance.now()
      try {
        const result = transport === 'http' ? await overHttp(session, call) : await session.request(call.method, call.params)
        return { ok: true, result, ms: performance.now() - started }
      } catch (error) {
        return { ok: false, error: toFailure(error), ms: performance.now() - started }
      }
    }

    const addToHistory = (call: Call, outcome: Outcome) => {
      const paramsText = JSON.stringify(call.params)
      const button = h(
        'button',
        { type: 'button', class: outcome.ok ? 'ok' : 'error', title: 'Load this call into the console' },
        h('span', { class: 'method' }, call.method),
        h('span', { class: 'params' }, paramsText.length > 80 ? `${paramsText.slice(0, 79)}…` : paramsText),
        h('span', { class: 'mark' }, outcome.ok ? 'ok' : String(outcome.error.code ?? 'error')),
      )
      button.addEventListener('click', () => {
        methodInput.value = call.method
        paramsInput.value = JSON.stringify(call.params, null, call.params.some((p) => typeof p === 'object') ? 2 : 0)
        exampleText = paramsInput.value
        showParamsError(undefined)
        showSnippets(call)
        paramsInput.focus()
      })
      historyList.prepend(h('li', {}, button))
      while (historyList.children.length > HISTORY_LIMIT) historyList.lastElementChild?.remove()
    }

    const send = async () => {
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
      const transport = transportSelect.value as Transport
      setBusy(sendButton, true)
      responseBox.setAttribute('aria-busy', 'true')
      try {
        const outcome = await run(call, transport)
        showOutcome(call, outcome, transport)
        showSnippets(call)
        addToHistory(call, outcome)
      } finally {
        responseBox.removeAttribute('aria-busy')
        setBusy(sendButton, false)
      }
    }

    form.addEventListener('submit', (event) => {
      event.preventDefault()
      if (!isBusy(sendButton)) void send()
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
    showSnippets({ method: methodInput.value, params: [] })
  },
}

/** The call as an HTTP client makes it: POST to the endpoint, a JSON-RPC error thrown as one. */
async function overHttp(session: Session, call: Call): Promise<unknown> {
  if (session.endpoint === undefined) throw new Error('this page has no HTTP endpoint')
  const response = await fetch(session.endpoint, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: call.method, params: call.params }),
  })
  const reply = (await response.json()) as { result?: unknown; error?: RpcFailure }
  if (reply.error) throw reply.error
  return reply.result
}
