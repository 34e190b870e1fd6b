import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { createNode } from '../../src/core/node.ts'

type PageNode = Awaited<ReturnType<typeof createNode>>

describe('the core runs in Chromium', () => {
  let node: PageNode

  beforeAll(async () => {
    node = await createNode()
  })

  afterAll(async () => {
    await node?.close()
  })

  test('it is really a browser', () => {
    expect(navigator.userAgent).toContain('Chrome')
    expect(document.body).toBeInstanceOf(HTMLElement)
  })

  test('eth_chainId is 260', async () => {
    await expect(node.request({ method: 'eth_chainId', params: [] })).resolves.toBe('0x104')
  })

  test('ten dev accounts', async () => {
    const accounts = (await node.request({ method: 'eth_accounts', params: [] })) as string[]
    expect(accounts).toHaveLength(10)
  })

  test('a fresh chain is at block 0', async () => {
    await expect(node.request({ method: 'eth_blockNumber', params: [] })).resolves.toBe('0x0')
  })

  test('an unknown method is -32601', async () => {
    await expect(node.request({ method: 'pagenode_noSuchMethod', params: [] })).rejects.toMatchObject({
      code: -32601,
    })
  })
})
