/**
 * pagenode/testing: a chain per test file for frontend unit tests in Vitest browser mode.
 *
 *   import { useChain } from 'pagenode/testing'
 *   const chain = useChain()               // top level of the file: starts in beforeAll
 *   test('…', async () => {
 *     await chain.walletClient.sendTransaction({ to, value })
 *     await chain.testClient.mine({ blocks: 1 })
 *   })
 *
 * Each file gets a fresh chain of its own (a unique name; memory, or IndexedDB with `persist`),
 * viem and ethers clients bound to it, and a snapshot taken before each test and reverted after
 * it, so tests do not leak state into each other. viem, ethers and vitest are optional peer
 * dependencies of pagenode: this module needs all three.
 */
export { useChain, startTestChain } from './testChain.ts'
export type { DevTestClient, DevWalletClient, TestChain, TestChainOptions } from './testChain.ts'
