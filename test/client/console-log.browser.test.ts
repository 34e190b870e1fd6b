/**
 * console.log in the page: the provider's `consoleLog` event, in the tab that ran the call and in
 * every other tab of the chain (the leader broadcasts it), and pagenode_consoleLogs afterwards.
 */
import { BrowserProvider, ContractFactory, Wallet, type Contract } from 'ethers'
import { expect, test } from 'vitest'
import artifacts from '../contracts/artifacts.json' with { type: 'json' }
import type { ConsoleLogOutput } from '../../src/core/index.ts'
import type { PageNode } from '../../src/client/index.ts'
import { DEV, start, uniqueName } from '../support/browser/nodes.ts'

function heard(node: PageNode): ConsoleLogOutput[] {
  const outputs: ConsoleLogOutput[] = []
  node.provider.on('consoleLog', (output) => outputs.push(output))
  return outputs
}

test("a follower tab's transaction prints to every tab's provider; its lines stay with it", async () => {
  const name = uniqueName('console')
  const leader = await start({ name })
  const follower = await start({ name })
  const [byLeader, byFollower] = [heard(leader), heard(follower)]

  const wallet = new Wallet(DEV[1].key, new BrowserProvider(follower.provider, undefined, { pollingInterval: 20, cacheTimeout: -1 }))
  const factory = new ContractFactory(artifacts.ConsoleLogs.abi, artifacts.ConsoleLogs.bytecode, wallet)
  const contract = (await factory.deploy({ gasLimit: 1_000_000n })) as Contract
  await contract.waitForDeployment()
  const receipt = await (await contract.getFunction('add')(2n, { gasLimit: 100_000n })).wait()

  const expected = { kind: 'transaction', transactionHash: receipt!.hash, blockNumber: BigInt(receipt!.blockNumber), lines: ['count is now 2'] }
  await expect.poll(() => byFollower.at(-1)).toEqual(expected)
  await expect.poll(() => byLeader.at(-1)).toEqual(expected)
  expect(byLeader[0].lines).toEqual([`deployed by ${DEV[1].address}`])
  expect(await leader.provider.request({ method: 'pagenode_consoleLogs', params: [receipt!.hash] })).toEqual(['count is now 2'])

  await contract.getFunction('everyKind')()
  await expect.poll(() => byFollower.at(-1)).toMatchObject({ kind: 'call', method: 'eth_call', lines: expect.arrayContaining(['1 + 2 = three']) })
})
