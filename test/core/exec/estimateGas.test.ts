import { Interface, Wallet, type Contract } from 'ethers'
import { describe, expect, test } from 'vitest'
import { utils } from 'zksync-ethers'
import { ACCOUNT_STEPS_ALLOWANCE } from '../../../src/core/exec/bootloaderEstimate.ts'
import type { Node } from '../../../src/core/node.ts'
import { artifacts, deploy, DEV, devWallet, rpc, startNode, withProbe } from '../../support/chain.ts'
import { zksyncProvider, zksyncWallet } from '../../support/zksync.ts'
import { failure } from '../../support/failure.ts'

const probeAbi = new Interface(artifacts.Probe.abi)
const tokenAbi = new Interface(artifacts.Token.abi)
const errorAbi = new Interface(['error Error(string)', 'error Panic(uint256)'])
const GWEI = 10n ** 9n
const FRESH = '0x00000000000000000000000000000000000000c0'

let node: Node | undefined


const encode = (fn: string, ...args: unknown[]) => probeAbi.encodeFunctionData(fn, args)
const hex = (value: bigint | number) => `0x${value.toString(16)}`

interface Receipt {
  status: string
  gasUsed: string
}

/** Sends a transaction from dev account 0 with exactly `gasLimit` and returns its receipt. */
async function sendWithGas(node: Node, request: { to?: string; data?: string; value?: bigint }, gasLimit: bigint): Promise<Receipt> {
  const response = await devWallet(node).sendTransaction({ ...request, gasLimit })
  return rpc(node)<Receipt>('eth_getTransactionReceipt', response.hash)
}

describe('eth_estimateGas', () => {
  test('a plain transfer costs 21000', async () => {
    node = await startNode()
    const call = rpc(node)
    expect(await call('eth_estimateGas', { from: DEV[0].address, to: DEV[1].address, value: '0xde0b6b3a7640000' })).toBe('0x5208')
    expect(await call('eth_estimateGas', { to: FRESH })).toBe('0x5208')
  })

  test.each([
    ['set a fresh slot', 'set', [5]],
    ['fill ten slots', 'fill', [10]],
    ['emit five events', 'ping', [5]],
    ['burn gas in a loop', 'burn', [200]],
  ])('%s: a transaction with exactly the estimate succeeds', async (_what, fn, args) => {
    const { node, call, address: to } = await withProbe()
    const data = encode(fn, ...args)
    const estimate = BigInt(await call<string>('eth_estimateGas', { from: DEV[0].address, to, data }))
    const receipt = await sendWithGas(node, { to, data }, estimate)
    expect(receipt.status).toBe('0x1')
    // The search stops within geth's 1.5% of the smallest limit that works.
    expect(estimate).toBeLessThanOrEqual((BigInt(receipt.gasUsed) * 1016n) / 1000n + 2300n)
  })

  test('clearing storage: the estimate covers the gas the refund later returns', async () => {
    const { node, call, probe, address: to } = await withProbe()
    const twin = (await deploy(devWallet(node), 'Probe')) as Contract
    await (await probe.fill(20)).wait()
    await (await twin.fill(20)).wait()
    const data = encode('clear', 20)

    const estimate = BigInt(await call<string>('eth_estimateGas', { from: DEV[0].address, to, data }))
    const cleared = await sendWithGas(node, { to, data }, estimate)
    expect(cleared.status).toBe('0x1')
    expect(BigInt(cleared.gasUsed)).toBeLessThan(estimate)

    // What the transaction ends up using is not enough to run it: that is why a search is needed.
    const short = await sendWithGas(node, { to: await twin.getAddress(), data }, BigInt(cleared.gasUsed))
    expect(short.status).toBe('0x0')
  })

  test('a transfer into a contract and a deployment succeed with their estimates', async () => {
    const { node, call, address: to } = await withProbe()
    const transfer = BigInt(await call<string>('eth_estimateGas', { from: DEV[0].address, to, value: '0x1' }))
    expect(transfer).toBeGreaterThan(21_000n)
    expect((await sendWithGas(node, { to, value: 1n }, transfer)).status).toBe('0x1')

    const deployment = BigInt(await call<string>('eth_estimateGas', { from: DEV[0].address, data: artifacts.Probe.bytecode }))
    expect((await sendWithGas(node, { data: artifacts.Probe.bytecode }, deployment)).status).toBe('0x1')
  })

  test('a token transfer succeeds with its estimate', async () => {
    node = await startNode()
    const token = (await deploy(devWallet(node), 'Token', 'Test', 'TST', 10n ** 24n)) as Contract
    const to = await token.getAddress()
    const data = tokenAbi.encodeFunctionData('transfer', [DEV[2].address, 10n ** 18n])
    const estimate = BigInt(await rpc(node)<string>('eth_estimateGas', { from: DEV[0].address, to, data }))
    expect((await sendWithGas(node, { to, data }, estimate)).status).toBe('0x1')
    expect(await token.balanceOf(DEV[2].address)).toBe(10n ** 18n)
  })

  test('is taken at the block asked for', async () => {
    const { call, probe, address: to } = await withProbe()
    await (await probe.set(5)).wait()
    const data = encode('set', 6)
    // Writing a zero slot costs far more than overwriting a non-zero one.
    const before = BigInt(await call<string>('eth_estimateGas', { to, data }, '0x1'))
    const after = BigInt(await call<string>('eth_estimateGas', { to, data }, 'latest'))
    expect(before - after).toBeGreaterThan(15_000n)
  })

  test('takes state overrides', async () => {
    node = await startNode()
    const estimate = await rpc(node)('eth_estimateGas', { to: FRESH, data: encode('set', 1) }, 'latest', {
      [FRESH]: { code: artifacts.Probe.deployedBytecode },
    })
    expect(BigInt(estimate as string)).toBeGreaterThan(40_000n)
    expect(await rpc(node)('eth_getCode', FRESH, 'latest')).toBe('0x')
  })

  describe('reverts', () => {
    test('code 3 with the decoded reason and the revert data', async () => {
      const { call, address: to } = await withProbe()
      expect(await failure(call('eth_estimateGas', { to, data: encode('failWith', 'no way') }))).toEqual({
        code: 3,
        message: 'execution reverted: no way',
        data: errorAbi.encodeErrorResult('Error', ['no way']),
      })
      expect(await failure(call('eth_estimateGas', { to, data: encode('divide', 1, 0) }))).toEqual({
        code: 3,
        message: 'execution reverted: division or modulo by zero',
        data: errorAbi.encodeErrorResult('Panic', [0x12]),
      })
      expect(await failure(call('eth_estimateGas', { to, data: encode('failCustom', 9) }))).toEqual({
        code: 3,
        message: 'execution reverted',
        data: probeAbi.encodeErrorResult('Custom', [9, 'custom']),
      })
    })

    test('ethers sees the reason when it estimates a transaction', async () => {
      const { probe } = await withProbe()
      await expect(probe.failWith('estimate me')).rejects.toMatchObject({ code: 'CALL_EXCEPTION', reason: 'estimate me' })
    })
  })

  describe('funds and allowance', () => {
    /** A new account holding `balance` wei. */
    async function fundedAccount(node: Node, balance: bigint): Promise<string> {
      const address = Wallet.createRandom().address.toLowerCase()
      await (await devWallet(node).sendTransaction({ to: address, value: balance })).wait()
      return address
    }

    test('a value above the balance is an error', async () => {
      const { node, call, address: to } = await withProbe()
      const poor = await fundedAccount(node, 1000n)
      expect(await failure(call('eth_estimateGas', { from: poor, to, value: hex(1001) }))).toEqual({
        code: -32000,
        message: `insufficient funds for gas * price + value: address ${poor} have 1000 want 1001`,
      })
    })

    test('with a gas price, the balance caps the gas: "gas required exceeds allowance"', async () => {
      const { node, call, address: to } = await withProbe()
      const poor = await fundedAccount(node, 30_000n * GWEI)
      const burn = { from: poor, to, data: encode('burn', 100) }
      expect(await failure(call('eth_estimateGas', { ...burn, gasPrice: hex(GWEI) }))).toEqual({
        code: -32000,
        message: 'gas required exceeds allowance (30000)',
      })
      expect(await failure(call('eth_estimateGas', { ...burn, maxFeePerGas: hex(2n * GWEI) }))).toEqual({
        code: -32000,
        message: 'gas required exceeds allowance (15000)',
      })
      // The value is not available for gas.
      expect(await failure(call('eth_estimateGas', { from: poor, to: FRESH, value: hex(10_000n * GWEI), gasPrice: hex(GWEI) }))).toEqual({
        code: -32000,
        message: 'gas required exceeds allowance (20000)',
      })
      // What the balance does cover is estimated as usual, and without a price it is not a limit.
      expect(await call('eth_estimateGas', { from: poor, to: FRESH, gasPrice: hex(GWEI) })).toBe('0x5208')
      expect(BigInt(await call<string>('eth_estimateGas', burn))).toBeGreaterThan(30_000n)
    })

    test('a `gas` the call does not fit in is "gas required exceeds allowance"', async () => {
      const { call, address: to } = await withProbe()
      expect(await failure(call('eth_estimateGas', { to, data: encode('burn', 100), gas: hex(25_000) }))).toEqual({
        code: -32000,
        message: 'gas required exceeds allowance (25000)',
      })
    })
  })
})

describe('a 0x71 estimate from an EOA: its EVM gas and the allowance for account steps', () => {
  const PUBDATA = { gasPerPubdata: utils.DEFAULT_GAS_PER_PUBDATA_LIMIT }

  test('eth_estimateGas and zks_estimateFee add ACCOUNT_STEPS_ALLOWANCE to a 0x71 call object; any other type is estimated as before', async () => {
    const { node, call, address: probe } = await withProbe()
    const provider = zksyncProvider(node)
    for (const request of [
      { from: DEV[0].address, to: FRESH, value: '0x1' },
      { from: DEV[0].address, to: probe, data: encode('set', 9) },
    ]) {
      const plain = BigInt(await call<string>('eth_estimateGas', request))
      expect(BigInt(await call<string>('eth_estimateGas', { ...request, type: '0x2' }))).toBe(plain)
      expect(BigInt(await call<string>('eth_estimateGas', { ...request, type: '0x71' }))).toBe(plain + ACCOUNT_STEPS_ALLOWANCE)
      expect(BigInt(await call<string>('eth_estimateGas', { ...request, eip712Meta: { gasPerPubdata: '0xc350' } }))).toBe(plain + ACCOUNT_STEPS_ALLOWANCE)
      // zksync-ethers' estimateGas and estimateFee send type 0x71 and eip712Meta when the request has customData.
      const tx = { from: request.from, to: request.to, value: BigInt(request.value ?? 0), data: request.data }
      expect(await provider.estimateGas({ ...tx, customData: PUBDATA })).toBe(plain + ACCOUNT_STEPS_ALLOWANCE)
      expect((await provider.estimateFee({ ...tx, customData: PUBDATA } as never)).gasLimit).toBe(plain + ACCOUNT_STEPS_ALLOWANCE)
      expect((await provider.estimateFee(tx)).gasLimit).toBe(plain)
    }
    expect(await call('eth_estimateGas', { from: DEV[0].address, to: FRESH, value: '0x1' })).toBe('0x5208')
  })

  test('the allowance stays within the gas the call object allows; an L1→L2 estimate gets none (it runs no account steps)', async () => {
    const { node, call } = await withProbe()
    expect(await call('eth_estimateGas', { from: DEV[0].address, to: FRESH, type: '0x71', gas: hex(30_000) })).toBe(hex(30_000))
    // zksync-ethers' L1→L2 estimate sends eip712Meta (its gasPerPubdata) with zks_estimateGasL1ToL2.
    const l1ToL2 = await zksyncProvider(node).estimateL1ToL2Execute({ contractAddress: FRESH, calldata: '0x', caller: DEV[0].address, l2Value: 1n })
    expect(BigInt(l1ToL2)).toBe(21_000n)
  })

  test("an EOA's 0x71 transaction sent without a gasLimit gets the estimate, uses its EVM gas, and pays only for that", async () => {
    node = await startNode()
    const provider = zksyncProvider(node)
    const wallet = zksyncWallet(node, 1, provider)
    const before = await provider.getBalance(wallet.address)
    const sent = await wallet.sendTransaction({ to: FRESH, value: 5n, customData: PUBDATA })
    expect(sent.type).toBe(utils.EIP712_TX_TYPE)
    expect(sent.gasLimit).toBe(21_000n + ACCOUNT_STEPS_ALLOWANCE)
    const receipt = (await sent.wait())!
    expect(receipt.status).toBe(1)
    expect(receipt.gasUsed).toBe(21_000n)
    expect(before - (await provider.getBalance(wallet.address))).toBe(5n + receipt.gasUsed * receipt.gasPrice)
  })

  test('with a General paymaster: the paymaster steps and the allowance; the paymaster pays only the gas used', async () => {
    node = await startNode()
    const provider = zksyncProvider(node)
    const funder = zksyncWallet(node, 0, provider)
    const paymaster = await (await deploy(devWallet(node), 'GeneralPaymaster')).getAddress()
    await (await funder.transfer({ to: paymaster, amount: 10n ** 18n })).wait()
    const customData = { ...PUBDATA, paymasterParams: utils.getPaymasterParams(paymaster, { type: 'General', innerInput: '0x' }) }
    const user = zksyncWallet(node, 2, provider)
    const plain = await provider.estimateGas({ from: user.address, to: FRESH, customData: PUBDATA })
    const paid = await provider.estimateGas({ from: user.address, to: FRESH, customData })
    // The paymaster's validation and postTransaction come on top of the transfer and the allowance.
    expect(paid).toBeGreaterThan(plain + 10_000n)
    const before = await provider.getBalance(paymaster)
    const userBefore = await provider.getBalance(user.address)
    const sent = await user.sendTransaction({ to: FRESH, customData })
    expect(sent.gasLimit).toBe(paid)
    const receipt = (await sent.wait())!
    expect(receipt.status).toBe(1)
    expect(receipt.gasUsed).toBeLessThanOrEqual(paid - ACCOUNT_STEPS_ALLOWANCE)
    expect(before - (await provider.getBalance(paymaster))).toBe(receipt.gasUsed * receipt.gasPrice)
    expect(await provider.getBalance(user.address)).toBe(userBefore)
  })
})
