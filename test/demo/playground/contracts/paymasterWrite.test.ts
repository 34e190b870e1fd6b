/**
 * A write paid by a paymaster, as the Contracts panel sends it: the "Gasless with a paymaster"
 * example compiled with the pinned solc, deployed and funded, pays for a write signed in the
 * page (the dev mnemonic's key) from an account with no ETH.
 */
import { createRequire } from 'node:module'
import { expect, test } from 'vitest'
import { encodeDeployData, encodeFunctionData, parseAbi, parseEther, type Hex } from 'viem'
import { mainContract, readSolcOutput, standardInput } from '../../../../demo/playground/contracts/compiler.ts'
import { EXAMPLES } from '../../../../demo/playground/contracts/examples.ts'
import { gatherSources } from '../../../../demo/playground/contracts/imports.ts'
import { sendWithPaymaster } from '../../../../demo/playground/contracts/paymasterWrite.ts'
import { eip1193, startNode } from '../../../support/chain.ts'
import { readLibrary } from '../../../support/solidityLibraries.ts'

const solc = createRequire(import.meta.url)('solc') as { compile(input: string): string }

/** Account 3 of the dev mnemonic. */
const GASLESS: Hex = '0x90f79bf6eb2c4f870365e785982e1f101e93b906'

test('the example paymaster pays for a write from an account emptied of ETH; a sender without a key in the page is refused', async () => {
  const node = await startNode()
  const request = <T>(method: string, params: unknown[] = []) => node.request({ method, params }) as Promise<T>
  const receipt = async (hash: Hex) => request<{ status: Hex; contractAddress: Hex; gasUsed: Hex; effectiveGasPrice: Hex }>('eth_getTransactionReceipt', [hash])
  const balance = async (address: Hex) => BigInt(await request<Hex>('eth_getBalance', [address, 'latest']))
  const [from] = await request<Hex[]>('eth_accounts')

  const example = EXAMPLES.find((e) => e.id === 'gasless-paymaster')!
  const { contracts } = readSolcOutput(JSON.parse(solc.compile(JSON.stringify(standardInput(await gatherSources(example.file, example.source, readLibrary))))), example.file, example.source)
  const compiled = mainContract(contracts, example.source)!
  expect(compiled.name).toBe('GaslessPaymaster')
  const deployed = await receipt(await request<Hex>('eth_sendTransaction', [{ from, data: encodeDeployData({ abi: compiled.abi, bytecode: compiled.bytecode }) }]))
  const paymaster = deployed.contractAddress
  await request('eth_sendTransaction', [{ from, to: paymaster, value: `0x${parseEther('1').toString(16)}` }])
  await request('anvil_setBalance', [GASLESS, '0x0'])

  // The write: the paymaster's own counter of fees paid is a target as good as any.
  const data = encodeFunctionData({ abi: parseAbi(['function paid() view returns (uint256)']), functionName: 'paid' })
  const access = { chainId: Number(BigInt(await request<Hex>('eth_chainId'))), provider: eip1193(node) }
  const hash = await sendWithPaymaster(access, { from: GASLESS, to: paymaster, data, paymaster })
  const written = await receipt(hash)
  expect(written.status).toBe('0x1')
  expect(await request<{ type: Hex; from: Hex }>('eth_getTransactionByHash', [hash])).toMatchObject({ type: '0x71', from: GASLESS })
  expect(await balance(GASLESS)).toBe(0n)
  expect(parseEther('1') - (await balance(paymaster))).toBe(BigInt(written.gasUsed) * BigInt(written.effectiveGasPrice))
  expect(BigInt(await request<Hex>('eth_call', [{ to: paymaster, data }, 'latest']))).toBe(1n)

  // An address the page has no key for (not among the dev mnemonic's first accounts).
  await expect(sendWithPaymaster(access, { from: '0x000000000000000000000000000000000000dead', to: paymaster, data, paymaster })).rejects.toThrow(
    'The page holds no key for 0x000000000000000000000000000000000000dead',
  )
})
