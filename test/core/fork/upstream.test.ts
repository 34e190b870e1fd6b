import { describe, expect, it } from 'vitest'
import { UpstreamError } from '../../../src/core/errors.ts'
import { Upstream } from '../../../src/core/fork/upstream.ts'

interface Call {
  id: number
  method: string
  params: unknown[]
}

/** A fetch that answers each JSON-RPC call with `answer(call)` (or a Response/throw of `fail(n)` for attempt n). */
function fakeFetch(answer: (call: Call) => unknown, fail?: (attempt: number) => Response | Error | undefined) {
  const posts: unknown[] = []
  const impl = async (_url: RequestInfo | URL, init?: RequestInit) => {
    const body = JSON.parse(init!.body as string) as Call | Call[]
    posts.push(body)
    const failure = fail?.(posts.length)
    if (failure instanceof Error) throw failure
    if (failure) return failure
    const one = (call: Call) => ({ jsonrpc: '2.0', id: call.id, ...(answer(call) as object) })
    return new Response(JSON.stringify(Array.isArray(body) ? body.map(one) : one(body)))
  }
  return { impl: impl as typeof fetch, posts }
}

const POLICY = { timeoutMs: 1000, retries: 2, backoffMs: 1 }

describe('the upstream client', () => {
  it('sends the calls of one task as one batch POST, and shares a call already in flight', async () => {
    const { impl, posts } = fakeFetch((call) => ({ result: `${call.method}:${JSON.stringify(call.params)}` }))
    const upstream = new Upstream('http://127.0.0.1:1/', POLICY, impl)
    const answers = await Promise.all([
      upstream.request('eth_getBalance', ['0x1', '0x5']),
      upstream.request('eth_getBalance', ['0x1', '0x5']),
      upstream.request('eth_getCode', ['0x1', '0x5']),
    ])
    expect(answers).toEqual(['eth_getBalance:["0x1","0x5"]', 'eth_getBalance:["0x1","0x5"]', 'eth_getCode:["0x1","0x5"]'])
    expect(posts).toHaveLength(1)
    expect((posts[0] as Call[]).map((call) => call.method)).toEqual(['eth_getBalance', 'eth_getCode'])
    // A single call goes as itself, not as a batch of one.
    await upstream.request('eth_chainId', [])
    expect(Array.isArray(posts[1])).toBe(false)
  })

  it('retries network errors, HTTP 429 and 5xx with backoff, then fails naming the host only', async () => {
    const { impl, posts } = fakeFetch(
      () => ({ result: '0x1' }),
      (attempt) => (attempt === 1 ? new TypeError('fetch failed') : attempt === 2 ? new Response('busy', { status: 429 }) : undefined),
    )
    expect(await new Upstream('https://user:secret@rpc.example:8545/v3/KEY', POLICY, impl).request('eth_chainId', [])).toBe('0x1')
    expect(posts).toHaveLength(3)

    const down = fakeFetch(
      () => ({}),
      () => new Response('no', { status: 503, statusText: 'Service Unavailable' }),
    )
    const error = await new Upstream('https://user:secret@rpc.example:8545/v3/KEY', POLICY, down.impl).request('eth_chainId', []).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(UpstreamError)
    expect(error).toMatchObject({
      code: -32603,
      upstream: 'rpc.example:8545',
      message: "the fork's upstream rpc.example:8545 failed eth_chainId: it answered HTTP 503 Service Unavailable (3 attempts)",
    })
    expect(down.posts).toHaveLength(3)
  })

  it('sends the credentials of a URL as Basic authorization (fetch refuses a URL with them)', async () => {
    const seen: { url: string; authorization: string | null }[] = []
    const impl = (async (url: RequestInfo | URL, init?: RequestInit) => {
      seen.push({ url: String(url), authorization: new Headers(init!.headers).get('authorization') })
      return new Response(JSON.stringify({ jsonrpc: '2.0', id: 1, result: '0x1' }))
    }) as typeof fetch
    await new Upstream('https://user:p%40ss@rpc.example/v3/KEY', POLICY, impl).request('eth_chainId', [])
    expect(seen).toEqual([{ url: 'https://rpc.example/v3/KEY', authorization: `Basic ${btoa('user:p@ss')}` }])
  })

  it('aborts a request past its timeout and retries it', async () => {
    let attempts = 0
    const impl = (async (_url: RequestInfo | URL, init?: RequestInit) => {
      attempts++
      return new Promise<Response>((_resolve, reject) => init!.signal!.addEventListener('abort', () => reject(init!.signal!.reason)))
    }) as typeof fetch
    const error = await new Upstream('http://127.0.0.1:9/', { timeoutMs: 20, retries: 1, backoffMs: 1 }, impl).request('eth_blockNumber', []).catch((e: unknown) => e)
    expect((error as Error).message).toBe("the fork's upstream 127.0.0.1:9 failed eth_blockNumber: no answer within 20 ms (2 attempts)")
    expect(attempts).toBe(2)
  })

  it('sends the calls one by one to an upstream that refuses batches', async () => {
    const posts: unknown[] = []
    const impl = (async (_url: RequestInfo | URL, init?: RequestInit) => {
      const body = JSON.parse(init!.body as string) as Call | Call[]
      posts.push(body)
      if (Array.isArray(body)) return new Response(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'batches are not supported' } }))
      return new Response(JSON.stringify({ jsonrpc: '2.0', id: body.id, result: body.method }))
    }) as typeof fetch
    const upstream = new Upstream('http://127.0.0.1:3/', POLICY, impl)
    expect(await Promise.all([upstream.request('eth_chainId', []), upstream.request('eth_blockNumber', [])])).toEqual(['eth_chainId', 'eth_blockNumber'])
    expect(await Promise.all([upstream.request('eth_gasPrice', []), upstream.request('net_version', [])])).toEqual(['eth_gasPrice', 'net_version'])
    // One refused batch, then single calls only.
    expect(posts.map((post) => (Array.isArray(post) ? 'batch' : (post as Call).method))).toEqual(['batch', 'eth_chainId', 'eth_blockNumber', 'eth_gasPrice', 'net_version'])
  })

  it("passes the upstream's JSON-RPC error on, for that call only, without retrying", async () => {
    const { impl, posts } = fakeFetch((call) => (call.method === 'eth_getProof' ? { error: { code: -32601, message: 'method not found' } } : { result: '0x' }))
    const upstream = new Upstream('http://127.0.0.1:2/', POLICY, impl)
    const [proof, code] = await Promise.allSettled([upstream.request('eth_getProof', ['0x1', [], '0x1']), upstream.request('eth_getCode', ['0x1', '0x1'])])
    expect(proof).toMatchObject({
      status: 'rejected',
      reason: { code: -32603, message: "the fork's upstream 127.0.0.1:2 answered eth_getProof with an error: method not found (code -32601)", cause: { code: -32601 } },
    })
    expect(code).toEqual({ status: 'fulfilled', value: '0x' })
    expect(posts).toHaveLength(1)
  })
})
