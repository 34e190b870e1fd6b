import type { Node } from '../../src/core/node.ts'
import { eip1193 } from './chain.ts'

/**
 * The EIP-1193 adapter of test/support with a log of what a client library asked for, so a test
 * can say which methods the library used and that the node served every one of them.
 */
export function recordingProvider(node: Node) {
  const inner = eip1193(node)
  const calls: string[] = []
  const unserved = new Set<string>()
  return {
    calls,
    unserved,
    async request(args: { method: string; params?: unknown }) {
      calls.push(args.method)
      try {
        return await inner.request(args)
      } catch (error) {
        if ((error as { code?: unknown }).code === -32601) unserved.add(args.method)
        throw error
      }
    },
  }
}
