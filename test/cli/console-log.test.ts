/**
 * The CLI prints console.log output as Hardhat's node does: a `console.log:` block under the
 * transaction (or the call) that printed it, with or without --verbose.
 */
import { Contract, ContractFactory, JsonRpcProvider, Network, Wallet, type InterfaceAbi } from 'ethers'
import { expect, test } from 'vitest'
import { artifacts, DEV } from '../support/chain.ts'
import { startCli } from '../support/cli.ts'

const { abi, bytecode } = artifacts.ConsoleLogs as { abi: InterfaceAbi; bytecode: string }

test('a transaction and a call print their console.log lines, as Hardhat prints them; an estimate does not', async () => {
  const cli = await startCli()
  const provider = new JsonRpcProvider(cli.url, undefined, { staticNetwork: Network.from(260), pollingInterval: 20, cacheTimeout: -1 })
  const wallet = new Wallet(DEV[0].key, provider)
  // ethers estimates the deployment first: only the transaction prints.
  const contract = (await new ContractFactory(abi, bytecode, wallet).deploy()) as Contract
  const deployed = await contract.deploymentTransaction()!.wait()
  await expect.poll(() => cli.stdout()).toContain(`Transaction: ${deployed!.hash} (block #1)\n  console.log:\n    deployed by ${DEV[0].address}\n`)

  const sent = await (await contract.getFunction('add')(3n, { gasLimit: 100_000n })).wait()
  await expect.poll(() => cli.stdout()).toContain(`Transaction: ${sent!.hash} (block #2)\n  console.log:\n    count is now 3\n`)

  await contract.getFunction('everyKind')()
  await expect.poll(() => cli.stdout()).toContain("eth_call\n  console.log:\n    \n    -42\n    7\n")
  expect(cli.stdout()).toContain("    1 + 2 = three\n    100% '5'\n")

  await contract.getFunction('add').estimateGas(4n)
  await (await contract.getFunction('add')(5n, { gasLimit: 100_000n })).wait()
  await expect.poll(() => cli.stdout()).toContain('count is now 8')
  expect(cli.stdout()).not.toContain('count is now 7')
  expect(cli.stdout().match(/deployed by/g)).toHaveLength(1)
  provider.destroy()
})
