import { afterEach } from 'vitest'
import { startNode, type PageNode, type StartOptions } from '../../../src/client/index.ts'

/** Nodes a test started and service workers it registered are gone after it: no test sees another's. */
const started: PageNode[] = []

afterEach(async () => {
  await Promise.all(started.splice(0).map((node) => node.stop()))
  const registrations = await navigator.serviceWorker.getRegistrations()
  await Promise.all(registrations.map((registration) => registration.unregister()))
})

/** A unique chain name and a same-origin base of its own, so a stale worker can never answer. */
export function uniqueChain(): { name: string; base: string } {
  const id = crypto.randomUUID().slice(0, 8)
  return { name: `sw-${id}`, base: `/rpc-${id}` }
}

/** A memory node with an HTTP endpoint, stopped after the test. */
export async function startHttpNode(options: StartOptions = {}): Promise<PageNode & { base: string; name: string }> {
  const chain = uniqueChain()
  const node = await startNode({ name: chain.name, persist: false, baseUrls: [chain.base], ...options })
  started.push(node)
  return Object.assign(node, { base: node.baseUrls[0], name: options.name ?? chain.name })
}

/** Remembers a node started directly, for the cleanup. */
export function track(node: PageNode): PageNode {
  started.push(node)
  return node
}

export interface HttpAnswer {
  status: number
  contentType: string | null
  headers: Headers
  text: string
  /** The body parsed, or undefined when it is empty. */
  json: unknown
}

/** A plain fetch, as any HTTP client sends it. */
export async function post(url: string, body: unknown, init: RequestInit = {}): Promise<HttpAnswer> {
  return answer(
    await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: typeof body === 'string' ? body : JSON.stringify(body),
      ...init,
    }),
  )
}

export async function answer(response: Response): Promise<HttpAnswer> {
  const text = await response.text()
  return {
    status: response.status,
    contentType: response.headers.get('content-type'),
    headers: response.headers,
    text,
    json: text === '' ? undefined : JSON.parse(text),
  }
}

export const call = (method: string, params: unknown[] = [], id: number | string = 1) => ({ jsonrpc: '2.0', id, method, params })
