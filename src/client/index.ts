export { startNode } from './startNode.ts'
export type { PageNode, StartOptions } from './startNode.ts'
export { PagenodeProvider, ProviderRpcError, DISCONNECTED } from './provider.ts'
export type { ProviderEvent } from './provider.ts'
