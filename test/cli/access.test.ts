/**
 * Who may drive the CLI (src/cli/accessPolicy.ts): this machine's hosts only (DNS rebinding),
 * pages on loopback or allowed origins only, JSON bodies only, CORS for allowed origins only.
 * The last test is a real page on a foreign origin, in Chromium, trying what such a page can
 * (fetch and WebSocket), then the same page on a loopback origin.
 */
import { chromium } from 'playwright'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { chromiumArgs, chromiumPath } from '../../scripts/chromium.ts'
import { serveStatic } from '../consumers/support/staticServer.ts'
import { DEV } from '../support/chain.ts'
import { call, post, startCli, type CliProcess } from '../support/cli.ts'

const BALANCE = { jsonrpc: '2.0', id: 1, method: 'eth_getBalance', params: [DEV[2].address, 'latest'] }
const SET_BALANCE = { jsonrpc: '2.0', id: 2, method: 'anvil_setBalance', params: [DEV[2].address, '0x1'] }

/** A POST as a client on another host, page or tool would send it. */
function send(url: string, body: unknown, headers: Record<string, string>) {
  return fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json', ...headers }, body: JSON.stringify(body) })
}

describe('the default policy', () => {
  let cli: CliProcess
  beforeAll(async () => {
    cli = await startCli([], { shared: true })
  })
  afterAll(() => cli?.child.kill('SIGKILL'))

  test('a client with no Origin (curl, scripts, backends) is served, with no CORS headers', async () => {
    const response = await post(cli.url, BALANCE)
    expect(response.status).toBe(200)
    expect(response.headers.get('access-control-allow-origin')).toBeNull()
  })

  test('a page on a loopback origin is served, its origin echoed', async () => {
    for (const origin of ['http://localhost:5173', 'http://127.0.0.1:3000', 'http://[::1]:8080', 'http://app.localhost:4000']) {
      const response = await send(cli.url, BALANCE, { Origin: origin })
      expect(response.status, origin).toBe(200)
      expect(response.headers.get('access-control-allow-origin')).toBe(origin)
      expect(response.headers.get('vary')).toContain('Origin')
    }
  })

  test('a page on another origin is refused, preflight and request alike, without CORS headers', async () => {
    const refused = await send(cli.url, SET_BALANCE, { Origin: 'https://evil.example' })
    expect(refused.status).toBe(403)
    expect(refused.headers.get('access-control-allow-origin')).toBeNull()
    expect((await refused.json()).error).toEqual({
      code: -32600,
      message: "origin https://evil.example is not allowed: pages on loopback origins may call pagenode; start it with --allow-origin https://evil.example (or --allow-origin '*' for every page, as anvil does)",
    })
    const preflight = await fetch(cli.url, { method: 'OPTIONS', headers: { Origin: 'https://evil.example', 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Private-Network': 'true' } })
    expect(preflight.status).toBe(403)
    expect(preflight.headers.get('access-control-allow-private-network')).toBeNull()
    expect(await call(cli.url, 'eth_getBalance', DEV[2].address, 'latest')).toBe(`0x${(10_000n * 10n ** 18n).toString(16)}`)
  })

  test('a body that is not application/json is refused (415) and never runs', async () => {
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x']) {
      const response = await fetch(cli.url, { method: 'POST', headers: { 'Content-Type': type }, body: JSON.stringify(SET_BALANCE) })
      expect(response.status, type).toBe(415)
      expect((await response.json()).error.message).toContain('JSON-RPC requests must be sent as application/json')
    }
    const untyped = await fetch(cli.url, { method: 'POST', body: new Blob([JSON.stringify(SET_BALANCE)]) })
    expect(untyped.status).toBe(415)
    expect(await call(cli.url, 'eth_getBalance', DEV[2].address, 'latest')).toBe(`0x${(10_000n * 10n ** 18n).toString(16)}`)
    // geth's other JSON types, and a charset, are JSON.
    for (const type of ['application/json; charset=utf-8', 'application/json-rpc', 'Application/JSON']) {
      expect((await send(cli.url, BALANCE, { 'Content-Type': type })).status, type).toBe(200)
    }
  })

  test("a request naming another host (DNS rebinding) is refused; this machine's names and addresses are served", async () => {
    const { port } = new URL(cli.url)
    const withHost = (host: string) => new Promise<number>((resolve, reject) => {
      // fetch will not set Host; node:http does.
      import('node:http').then(({ request }) => {
        const req = request({ host: '127.0.0.1', port, method: 'POST', path: '/', headers: { Host: host, 'Content-Type': 'application/json' } }, (res) => {
          res.resume()
          resolve(res.statusCode!)
        })
        req.on('error', reject)
        req.end(JSON.stringify(BALANCE))
      }, reject)
    })
    expect(await withHost(`evil.example:${port}`)).toBe(403)
    expect(await withHost('rebind.attacker.test')).toBe(403)
    for (const host of [`localhost:${port}`, `127.0.0.1:${port}`, `[::1]:${port}`, 'api.localhost', `192.168.1.7:${port}`]) {
      expect(await withHost(host), host).toBe(200)
    }
  })
})

test('--allow-origin and --allow-host let one page and one name in; Private Network Access only for that origin', async () => {
  const cli = await startCli(['--allow-origin', 'https://dapp.example', '--allow-host', 'devbox.lan'])
  const allowed = await send(cli.url, BALANCE, { Origin: 'https://dapp.example' })
  expect(allowed.status).toBe(200)
  expect(allowed.headers.get('access-control-allow-origin')).toBe('https://dapp.example')
  const preflight = { 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Private-Network': 'true' }
  const asked = await fetch(cli.url, { method: 'OPTIONS', headers: { Origin: 'https://dapp.example', ...preflight } })
  expect(asked.headers.get('access-control-allow-private-network')).toBe('true')
  const local = await fetch(cli.url, { method: 'OPTIONS', headers: { Origin: 'http://localhost:3000', ...preflight } })
  expect(local.status).toBe(204)
  expect(local.headers.get('access-control-allow-private-network')).toBeNull()
  expect((await send(cli.url, BALANCE, { Origin: 'https://other.example' })).status).toBe(403)
})

/** In the page: opens a WebSocket to `url` and sends `body` if it opens; says how it went. */
const openSocket = ({ url, body }: { url: string; body: unknown }) =>
  new Promise<string>((resolve) => {
    const socket = new WebSocket(url)
    socket.onopen = () => {
      socket.send(JSON.stringify(body))
      socket.onmessage = (event) => resolve(`answered ${String(event.data)}`)
    }
    socket.onclose = (event) => resolve(`closed ${event.code}`)
  })

test('a page on a foreign origin in Chromium can neither read the node nor change it', async () => {
  const cli = await startCli([])
  // The attacker's page, at http://evil.test:<port>: Chromium resolves evil.test to this machine.
  const site = await serveStatic(new URL('.', import.meta.url).pathname, (path) =>
    path === '/attack.html' ? { status: 200, type: 'text/html', body: '<!doctype html><p>attack</p>' } : undefined,
  )
  const browser = await chromium.launch({ executablePath: chromiumPath, args: [...chromiumArgs, '--host-resolver-rules=MAP evil.test 127.0.0.1'] })
  try {
    const page = await browser.newPage()
    await page.goto(`${site.url.replace('127.0.0.1', 'evil.test')}attack.html`)
    const outcomes = await page.evaluate(async ({ url, setBalance, balance }) => {
      const attempt = async (init: RequestInit) => {
        try {
          const response = await fetch(url, { method: 'POST', ...init })
          return `read ${response.status}: ${await response.text()}`
        } catch (error) {
          return `failed: ${(error as Error).name}`
        }
      }
      return {
        // A "simple" request: no preflight, so it reaches the server; no-cors hides the answer.
        simple: await attempt({ mode: 'no-cors', headers: { 'Content-Type': 'text/plain' }, body: JSON.stringify(setBalance) }),
        json: await attempt({ headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(setBalance) }),
        read: await attempt({ headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(balance) }),
      }
    }, { url: cli.url, setBalance: SET_BALANCE, balance: BALANCE })
    // WebSocket has no CORS: only the server's Origin check keeps this page out.
    const socket = await page.evaluate(openSocket, { url: cli.url.replace(/^http/, 'ws'), body: SET_BALANCE })
    expect(socket).toBe('closed 1006')
    expect(outcomes.json).toBe('failed: TypeError')
    expect(outcomes.read).toBe('failed: TypeError')
    expect(outcomes.simple).toMatch(/^read 0: $/) // opaque: sent, unreadable (and refused: below)
    expect(await call(cli.url, 'eth_getBalance', DEV[2].address, 'latest')).toBe(`0x${(10_000n * 10n ** 18n).toString(16)}`)

    // The same page on a loopback origin opens its socket and is answered.
    await page.goto(`${site.url}attack.html`)
    const local = await page.evaluate(openSocket, { url: cli.url.replace(/^http/, 'ws'), body: BALANCE })
    expect(local).toBe(`answered ${JSON.stringify({ jsonrpc: '2.0', id: 1, result: `0x${(10_000n * 10n ** 18n).toString(16)}` })}`)
  } finally {
    await browser.close()
    await site.close()
  }
})
