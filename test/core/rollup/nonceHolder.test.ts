import { Contract } from 'ethers'
import { utils } from 'zksync-ethers'
import { expect, test } from 'vitest'
import { errorStringOf } from '../../../src/core/exec/revertReason.ts'
import { deploy, devWallet, rpc, startNode } from '../../support/chain.ts'
import { zksyncProvider, zksyncWallet } from '../../support/zksync.ts'
import { hexToBytes } from '@ethereumjs/util'

test("NonceHolder answers an EOA's and a contract's nonces as ZKsync splits them (minimal / deployment)", async () => {
  const node = await startNode()
  const provider = zksyncProvider(node)
  const holder = new Contract(utils.NONCE_HOLDER_ADDRESS, utils.NONCE_HOLDER_ABI, provider)
  const wallet = zksyncWallet(node, 0, provider)
  expect(await holder.getMinNonce(wallet.address)).toBe(0n)
  await (await wallet.transfer({ to: wallet.address, amount: 1n })).wait()
  await (await wallet.transfer({ to: wallet.address, amount: 1n })).wait()
  // What zksync-ethers' own nonce reads return, and the account's nonce.
  expect(await holder.getMinNonce(wallet.address)).toBe(2n)
  expect(await holder.getDeploymentNonce(wallet.address)).toBe(0n)
  expect(await holder.getRawNonce(wallet.address)).toBe(2n)
  expect(await holder.isNonceUsed(wallet.address, 1n)).toBe(true)
  expect(await holder.isNonceUsed(wallet.address, 2n)).toBe(false)
  expect(await wallet.getDeploymentNonce()).toBe(0n)

  // A contract: EIP-161 starts its nonce at 1, counting its creations.
  const probe = await deploy(devWallet(node, 1), 'Probe')
  const address = await probe.getAddress()
  expect(await holder.getMinNonce(address)).toBe(0n)
  expect(await holder.getDeploymentNonce(address)).toBe(1n)
  expect(await holder.getRawNonce(address)).toBe(1n << 128n)
  // An address nobody used.
  expect(await holder.getRawNonce('0x000000000000000000000000000000000000dEaD')).toBe(0n)
})

test('the writing functions revert with the reason; a short call too', async () => {
  const node = await startNode()
  const holder = new Contract(utils.NONCE_HOLDER_ADDRESS, utils.NONCE_HOLDER_ABI)
  const call = (data: string) => rpc(node)('eth_call', { to: utils.NONCE_HOLDER_ADDRESS, data }).catch((e: { data: string }) => e.data)
  const reason = async (data: string) => errorStringOf(hexToBytes((await call(data)) as `0x${string}`))
  expect(await reason(holder.interface.encodeFunctionData('increaseMinNonce', [1n]))).toMatch(/^NonceHolder: nonces change only through transactions on this node/)
  expect(await reason('0x896909dc')).toBe('NonceHolder: calldata too short')
  expect(await reason('0x')).toBe('NonceHolder: no function selector')
})
