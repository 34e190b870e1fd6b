import { BrowserProvider, Contract, ContractFactory, parseEther, verifyMessage, verifyTypedData, type InterfaceAbi } from 'ethers'
import { beforeEach, expect, test } from 'vitest'
import type { Node } from '../../../src/core/node.ts'
import { artifacts, DEV, eip1193, startNode } from '../../support/chain.ts'

let node: Node
let provider: BrowserProvider
beforeEach(async () => {
  node = await startNode()
  provider = new BrowserProvider(eip1193(node), undefined, { pollingInterval: 10, cacheTimeout: -1 })
})

test("ethers' BrowserProvider signer: the node's first dev account, sending with eth_sendTransaction", async () => {
  const signer = await provider.getSigner()
  expect((await signer.getAddress()).toLowerCase()).toBe(DEV[0].address)
  const response = await signer.sendTransaction({ to: DEV[1].address, value: parseEther('1.5') })
  const receipt = await response.wait()
  expect(receipt).toMatchObject({ status: 1, from: signer.address })
  expect(await provider.getBalance(DEV[1].address)).toBe(parseEther('10001.5'))

  // A contract deployed and called through the signer.
  const { abi, bytecode } = artifacts.Token as { abi: InterfaceAbi; bytecode: string }
  const token = await (await new ContractFactory(abi, bytecode, signer).deploy('Signed', 'S', 1000n)).waitForDeployment()
  const other = new Contract(await token.getAddress(), abi, await provider.getSigner(1))
  await (await (token.connect(signer) as Contract).transfer(DEV[1].address, 40n)).wait()
  await (await other.transfer(DEV[2].address, 15n)).wait()
  expect(await other.balanceOf(DEV[2].address)).toBe(15n)
})

test("ethers' BrowserProvider signer signs messages and typed data the dev key's way", async () => {
  const signer = await provider.getSigner(2)
  const domain = { name: 'Permit', version: '1', chainId: 260, verifyingContract: '0x000000000000000000000000000000000000dEaD' }
  const types = {
    Permit: [
      { name: 'owner', type: 'address' },
      { name: 'spender', type: 'address' },
      { name: 'value', type: 'uint256' },
      { name: 'nonce', type: 'uint256' },
      { name: 'deadline', type: 'uint256' },
    ],
  }
  const value = { owner: signer.address, spender: DEV[0].address, value: 10n ** 18n, nonce: 0n, deadline: 2n ** 64n }
  const signature = await signer.signTypedData(domain, types, value)
  expect(verifyTypedData(domain, types, value, signature)).toBe(signer.address)

  const message = await signer.signMessage('sign in to the dApp')
  expect(verifyMessage('sign in to the dApp', message)).toBe(signer.address)
})
