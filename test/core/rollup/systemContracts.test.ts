import { readFileSync } from 'node:fs'
import { Contract, parseEther } from 'ethers'
import { utils } from 'zksync-ethers'
import { expect, test } from 'vitest'
import { BRIDGE_CONTRACTS, L1_ASSET_ROUTER, L1_CHAIN_ID } from '../../../src/core/rollup/l1Settlement.ts'
import { systemContracts } from '../../../src/core/rollup/systemContracts.ts'
import { compileContracts } from '../../contracts/compile.mjs'
import { rpc, startNode } from '../../support/chain.ts'
import { zksyncProvider } from '../../support/zksync.ts'

test('each installed runtime is what the pinned solc makes of its source', async () => {
  for (const { name, runtime } of await systemContracts()) {
    const source = readFileSync(new URL(`../../../src/core/rollup/${name}.sol`, import.meta.url), 'utf8')
    // On a mismatch: paste the fresh deployedBytecode into src/core/rollup/systemContractRuntimes.ts.
    expect(compileContracts({ [`${name}.sol`]: source })[name].deployedBytecode, name).toBe(runtime)
  }
}, 120_000)

test('genesis installs them at their addresses; zks_getBridgeContracts names the router and its L1 side', async () => {
  const node = await startNode()
  const call = rpc(node)
  for (const { address, runtime } of await systemContracts()) expect(await call('eth_getCode', address, 'latest')).toBe(runtime)
  // NonceHolder is a precompile, with a byte of code so that Solidity calls it (rollup/nonceHolder.ts).
  expect(await call('eth_getCode', '0x0000000000000000000000000000000000008003', 'latest')).toBe('0xfe')
  expect(await call('zks_getBridgeContracts')).toMatchObject({
    l1SharedDefaultBridge: L1_ASSET_ROUTER,
    l2SharedDefaultBridge: utils.L2_ASSET_ROUTER_ADDRESS,
  })
  expect(BRIDGE_CONTRACTS.l1Erc20DefaultBridge).toBeNull()
})

test("zksync-ethers reads the bridges and the base token as on ZKsync (router's L1 side, the vault's asset id)", async () => {
  const provider = zksyncProvider(await startNode())
  const bridges = await provider.getDefaultBridgeAddresses()
  expect(bridges.sharedL2).toBe(utils.L2_ASSET_ROUTER_ADDRESS)
  expect(bridges.sharedL1.toLowerCase()).toBe(L1_ASSET_ROUTER)
  expect(await provider.isEthBasedChain()).toBe(true)
  expect(await provider.isBaseToken(utils.ETH_ADDRESS_IN_CONTRACTS)).toBe(true)
  expect(await provider.l2TokenAddress(utils.ETH_ADDRESS)).toBe(utils.L2_BASE_TOKEN_ADDRESS)
  const vault = new Contract(utils.L2_NATIVE_TOKEN_VAULT_ADDRESS, ['function BASE_TOKEN_ASSET_ID() view returns (bytes32)', 'function L1_CHAIN_ID() view returns (uint256)', 'function originChainId(bytes32) view returns (uint256)', 'function assetId(address) view returns (bytes32)'], provider)
  const assetId = utils.encodeNativeTokenVaultAssetId(L1_CHAIN_ID, utils.ETH_ADDRESS_IN_CONTRACTS)
  expect(await vault.BASE_TOKEN_ASSET_ID()).toBe(assetId)
  expect(await vault.L1_CHAIN_ID()).toBe(L1_CHAIN_ID)
  expect(await vault.originChainId(assetId)).toBe(L1_CHAIN_ID)
  expect(await vault.assetId('0x000000000000000000000000000000000000dEaD')).toBe(`0x${'0'.repeat(64)}`)
  // A token withdrawal through the router has nothing to bridge: refused, with the way that works.
  const router = new Contract(utils.L2_ASSET_ROUTER_ADDRESS, ['function withdraw(address,address,uint256)'], provider)
  await expect(router.withdraw.staticCall(utils.ETH_ADDRESS, utils.ETH_ADDRESS, 1n)).rejects.toThrow(/no bridged tokens on this node; withdraw ETH through L2BaseToken/)
})

test('L2BaseToken answers balances (its uint256 argument truncated to an address, as BALANCE does), supply, name', async () => {
  const node = await startNode({ accounts: 3, balance: parseEther('100') })
  const provider = zksyncProvider(node)
  const token = new Contract(
    utils.L2_BASE_TOKEN_ADDRESS,
    ['function balanceOf(uint256) view returns (uint256)', 'function totalSupply() view returns (uint256)', 'function name() view returns (string)', 'function symbol() view returns (string)', 'function decimals() view returns (uint8)', 'function transferFromTo(address,address,uint256)', 'error Unauthorized(address)'],
    provider,
  )
  const [account] = (await rpc(node)('eth_accounts')) as string[]
  expect(await token.balanceOf(account)).toBe(parseEther('100'))
  expect(await token.balanceOf((1n << 200n) | BigInt(account))).toBe(parseEther('100'))
  // 3 dev accounts and the 20 rich wallets.
  expect(await token.totalSupply()).toBe(parseEther('100') * 23n)
  expect([await token.name(), await token.symbol(), await token.decimals()]).toEqual(['Ether', 'ETH', 18n])
  // Only the bootloader and ZKsync's value-moving system contracts may call it there; none exist here.
  const data = token.interface.encodeFunctionData('transferFromTo', [account, account, 1n])
  const refused = (await rpc(node)('eth_call', { from: account, to: utils.L2_BASE_TOKEN_ADDRESS, data }).catch((e: unknown) => e)) as { data: string }
  expect(refused.data).toBe(token.interface.encodeErrorResult('Unauthorized', [account]))
  // zksync-ethers' own balance read for the base token goes through eth_getBalance: the same number.
  expect(await provider.getBalance(account, 'latest', utils.L2_BASE_TOKEN_ADDRESS)).toBe(parseEther('100'))
})
