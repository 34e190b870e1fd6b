/**
 * The cold and warm start page: what an app does (startNode, then a first call), nothing else.
 * Its build is also what "page client" means in the bundle sizes. `?name=` picks the chain.
 */
import { startNode } from '../../src/client/index.ts'

declare global {
  interface Window {
    __pageScriptStart: number
    __start?: Promise<{ toFirstAnswer: number; fromNavigation: number; blockNumber: string }>
  }
}

const name = new URLSearchParams(location.search).get('name') ?? 'bench-start'
window.__start = (async () => {
  const node = await startNode({ name })
  const blockNumber = (await node.provider.request({ method: 'eth_blockNumber' })) as string
  const now = performance.now()
  return { toFirstAnswer: now - window.__pageScriptStart, fromNavigation: now, blockNumber }
})()
