import { describe, expect, test } from 'vitest'
import { describeFork, parseForkForm } from '../../../../demo/playground/node/fork.ts'

describe("the playground's fork form", () => {
  test('a URL, and a block if one is given, become anvil_reset params', () => {
    expect(parseForkForm(' https://rpc.example/v3/KEY ', '')).toEqual({ params: [{ forking: { jsonRpcUrl: 'https://rpc.example/v3/KEY' } }] })
    expect(parseForkForm('http://127.0.0.1:8545', '1234')).toEqual({ params: [{ forking: { jsonRpcUrl: 'http://127.0.0.1:8545', blockNumber: 1234 } }] })
  })

  test('what is not a URL or a block number is named', () => {
    expect(parseForkForm('sepolia', '')).toEqual({ error: 'The upstream must be an http:// or https:// URL, e.g. https://rpc.example.org.' })
    expect(parseForkForm('wss://rpc.example', '')).toHaveProperty('error')
    expect(parseForkForm('https://rpc.example', 'latest')).toEqual({ error: 'The block must be a block number (decimal), not "latest".' })
  })

  test('the fork is named by its host and block, never the rest of its URL', () => {
    expect(describeFork({ forkUrl: 'https://user:key@rpc.example/v3/KEY', forkBlockNumber: 42 })).toBe('A fork of rpc.example at block 42.')
    expect(describeFork({ forkUrl: null, forkBlockNumber: null })).toBe('Not a fork: this chain started from its own genesis.')
  })
})
