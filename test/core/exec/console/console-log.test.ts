/**
 * console.log through createNode (pagenode/core): the `consoleLog` event for mined transactions
 * and for calls (not for estimates, as in Hardhat), the lines kept with the transaction
 * (pagenode_consoleLogs), and a console call costing what a call to any empty account costs.
 */
import { BrowserProvider, ContractFactory, Wallet, type Contract } from 'ethers'
import { afterEach, expect, test } from 'vitest'
import { createNode, type ConsoleLogOutput, type Pagenode } from '../../../../src/core/index.ts'
import { artifacts, DEV } from '../../../support/chain.ts'

const nodes: Pagenode[] = []
afterEach(async () => {
  await Promise.all(nodes.splice(0).map((node) => node.close()))
})

async function start() {
  const node = await createNode()
  nodes.push(node)
  const outputs: ConsoleLogOutput[] = []
  node.on('consoleLog', (output) => outputs.push(output))
  const wallet = new Wallet(DEV[0].key, new BrowserProvider(node, undefined, { pollingInterval: 10, cacheTimeout: -1 }))
  const factory = new ContractFactory(artifacts.ConsoleLogs.abi, artifacts.ConsoleLogs.bytecode, wallet)
  const contract = (await factory.deploy()) as Contract
  const deployment = await contract.deploymentTransaction()!.wait()
  const address = (await contract.getAddress()).toLowerCase()
  const call = <T = unknown>(method: string, ...params: unknown[]) => node.request({ method, params }) as Promise<T>
  return { node, outputs, contract, address, deployment: deployment!, call }
}

test('a mined transaction: its lines once its block is stored, kept with it (pagenode_consoleLogs)', async () => {
  const { outputs, contract, deployment, call } = await start()
  // ethers estimated the deployment's gas first: that run printed nothing, as in Hardhat.
  expect(outputs).toEqual([
    { kind: 'transaction', transactionHash: deployment.hash, blockNumber: BigInt(deployment.blockNumber), lines: [`deployed by ${DEV[0].address}`] },
  ])

  const receipt = await (await contract.getFunction('add')(5n)).wait()
  expect(outputs.at(-1)).toEqual({ kind: 'transaction', transactionHash: receipt.hash, blockNumber: BigInt(receipt.blockNumber), lines: ['count is now 5'] })
  expect(await call('pagenode_consoleLogs', receipt.hash)).toEqual(['count is now 5'])
  expect(await call('pagenode_consoleLogs', deployment.hash)).toEqual([`deployed by ${DEV[0].address}`])
  // A transaction that printed nothing, and one the node does not know.
  const transfer = await call<string>('eth_sendTransaction', { from: DEV[1].address, to: DEV[2].address, value: '0x1' })
  expect(await call('pagenode_consoleLogs', transfer)).toEqual([])
  expect(await call('pagenode_consoleLogs', `0x${'ab'.repeat(32)}`)).toBeNull()
})

test('every argument shape, formatted as Hardhat prints it, from an eth_call', async () => {
  const { outputs, contract, address } = await start()
  outputs.length = 0
  await contract.getFunction('everyKind')()
  expect(outputs).toEqual([
    {
      kind: 'call',
      method: 'eth_call',
      lines: ['', '-42', '7', `true ${address}`, `0x${Buffer.from('pagenode').toString('hex').padEnd(64, '0')}`, '0xc0ffee', '1 + 2 = three', "100% '5'"],
    },
  ])
})

test('a frame that reverts still prints, in a transaction and in a reverting eth_call', async () => {
  const { outputs, contract, call, address } = await start()
  const receipt = await (await contract.getFunction('survive')()).wait()
  expect(await call('pagenode_consoleLogs', receipt.hash)).toEqual(['about to fail', 'survived'])
  outputs.length = 0
  await expect(call('eth_call', { to: address, data: contract.interface.encodeFunctionData('fail') })).rejects.toMatchObject({ code: 3 })
  expect(outputs).toEqual([{ kind: 'call', method: 'eth_call', lines: ['about to fail'] }])
})

test('eth_estimateGas prints nothing, as in Hardhat (a wallet estimates before each send); debug_traceCall prints', async () => {
  const { outputs, contract, call, address } = await start()
  outputs.length = 0
  const request = { from: DEV[0].address, to: address, data: contract.interface.encodeFunctionData('add', [1n]) }
  await call('eth_estimateGas', request)
  expect(outputs).toEqual([])
  await call('debug_traceCall', request, 'latest', { tracer: 'callTracer' })
  expect(outputs).toEqual([{ kind: 'call', method: 'debug_traceCall', lines: ['count is now 1'] }])
})

test('a console call costs what the same call to any other empty account costs', async () => {
  const { outputs, contract } = await start()
  await (await contract.getFunction('add')(1n)).wait() // both pings then change a nonzero count
  const toConsole = await (await contract.getFunction('ping')('0x000000000000000000636f6e736f6c652e6c6f67')).wait()
  const toEmpty = await (await contract.getFunction('ping')('0x000000000000000000636f6e736f6c652e6c6f68')).wait()
  expect(toConsole.gasUsed).toBe(toEmpty.gasUsed)
  const mined = outputs.filter((output) => output.kind === 'transaction')
  expect(mined.at(-1)).toMatchObject({ transactionHash: toConsole.hash, lines: ['ping'] })
})
