import { createPublicClient, custom, parseEther, type Abi, type Hex } from 'viem'
import { simulateBlocks, simulateCalls } from 'viem/actions'
import { zksyncInMemoryNode } from 'viem/chains'
import { describe, expect, test } from 'vitest'
import { artifacts, deploy, DEV, devWallet, eip1193, rpc, startNode } from '../../support/chain.ts'
import { expectRpcError } from '../../support/expectRpc.ts'
import { leafAbi, tracingAbi, tracingChain } from '../../support/tracing.ts'

const tokenAbi = artifacts.Token.abi as Abi
const STRANGER = '0xc000000000000000000000000000000000000000'
const OTHER = '0xc100000000000000000000000000000000000000'
const TRANSFER_TOPIC = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef'
const word = (hex: string) => `0x${hex.slice(2).padStart(64, '0')}`

function client(node: Parameters<typeof eip1193>[0]) {
  return createPublicClient({ chain: zksyncInMemoryNode, transport: custom(eip1193(node), { retryCount: 0 }) })
}

interface SimBlock {
  number: string
  hash: string
  parentHash: string
  timestamp: string
  baseFeePerGas: string
  miner: string
  gasUsed: string
  transactions: (string | Record<string, unknown>)[]
  calls: { returnData: string; logs: { address: string; topics: string[]; data: string; logIndex: string; transactionHash: string; blockHash: string }[]; gasUsed: string; maxUsedGas: string; status: string; error?: { code: number; message: string; data?: string } }[]
}

describe('eth_simulateV1', () => {
  test('viem simulateCalls: calls build on each other, a revert is a result, the chain is untouched', async () => {
    const node = await startNode()
    const token = await deploy(devWallet(node), 'Token', 'T', 'T', parseEther('100'))
    const address = (await token.getAddress()) as Hex
    const head = await rpc(node)('eth_blockNumber')
    const { results } = await simulateCalls(client(node), {
      account: DEV[0].address as Hex,
      calls: [
        { to: address, abi: tokenAbi, functionName: 'transfer', args: [OTHER, parseEther('1')] },
        { to: address, abi: tokenAbi, functionName: 'balanceOf', args: [OTHER] },
        { to: address, abi: tokenAbi, functionName: 'transfer', args: [OTHER, parseEther('1000')] },
      ],
    })
    expect(results[0]).toMatchObject({ status: 'success', result: true })
    expect(results[0].logs?.[0]).toMatchObject({ address: address.toLowerCase(), topics: [TRANSFER_TOPIC, word(DEV[0].address), word(OTHER)] })
    // The second call sees the first one's transfer.
    expect(results[1]).toMatchObject({ status: 'success', result: parseEther('1') })
    expect(results[2].status).toBe('failure')
    expect(results[2].error?.message).toMatch(/ERC20: transfer amount exceeds balance/)
    // Nothing happened on the chain.
    expect(await rpc(node)('eth_blockNumber')).toBe(head)
    expect(await token.getFunction('balanceOf')(OTHER)).toBe(0n)
  })

  test("viem simulateCalls with traceAssetChanges: the sender's ETH and token changes", async () => {
    const node = await startNode()
    const token = await deploy(devWallet(node), 'Token', 'T', 'T', parseEther('100'))
    const address = (await token.getAddress()) as Hex
    const { results, assetChanges } = await simulateCalls(client(node), {
      account: DEV[0].address as Hex,
      calls: [
        { to: OTHER, value: parseEther('1') },
        { to: address, abi: tokenAbi, functionName: 'transfer', args: [OTHER, parseEther('3')] },
      ],
      traceAssetChanges: true,
      traceTransfers: true,
    })
    expect(results.map((result) => result.status)).toEqual(['success', 'success'])
    const eth = assetChanges.find((change) => change.token.symbol === 'ETH')!
    // One ether sent; gas is free without validation (a zero base fee, as eth_call).
    expect(eth.value.diff).toBe(-parseEther('1'))
    const tokenChange = assetChanges.find((change) => change.token.address.toLowerCase() === address.toLowerCase())!
    expect(tokenChange.value.diff).toBe(-parseEther('3'))
  })

  test('viem simulateBlocks: blocks in sequence, block and state overrides, full transactions', async () => {
    const node = await startNode()
    const call = rpc(node)
    const head = await call<{ number: string; hash: string; timestamp: string }>('eth_getBlockByNumber', 'latest', false)
    const blocks = await simulateBlocks(client(node), {
      blocks: [
        {
          blockOverrides: { number: BigInt(head.number) + 1n, time: BigInt(head.timestamp) + 100n, feeRecipient: OTHER },
          stateOverrides: [{ address: STRANGER, balance: parseEther('2') }],
          calls: [{ account: STRANGER, to: OTHER, value: parseEther('1') }],
        },
        { calls: [{ account: STRANGER, to: OTHER, value: parseEther('0.5') }] },
      ],
      returnFullTransactions: true,
    })
    expect(blocks.map((block) => block.number)).toEqual([1n, 2n].map((n) => BigInt(head.number) + n))
    expect(blocks[0].parentHash).toBe(head.hash)
    expect(blocks[1].parentHash).toBe(blocks[0].hash)
    const [fifth, sixth] = blocks
    expect(fifth.timestamp).toBe(BigInt(head.timestamp) + 100n)
    expect(sixth.timestamp).toBe(BigInt(head.timestamp) + 101n)
    expect(fifth.miner).toBe(OTHER)
    expect(fifth.baseFeePerGas).toBe(0n) // no validation: eth_call's free gas
    expect(fifth.calls[0]).toMatchObject({ status: 'success', gasUsed: 21_000n })
    expect(fifth.transactions[0]).toMatchObject({ from: STRANGER, to: OTHER, value: parseEther('1'), nonce: 0 })
    expect(sixth.transactions[0]).toMatchObject({ nonce: 1, value: parseEther('0.5') })
    // The state went on from block to block, and nothing of it reached the chain.
    expect(await call('eth_getBalance', STRANGER, 'latest')).toBe('0x0')
  })

  test('without validation a call pays no gas, even at an overridden base fee (BASEFEE reads it)', async () => {
    const call = rpc(await startNode())
    const reader = '0x00000000000000000000000000000000000000bb'
    // CALLER BALANCE, then BASEFEE: returns (the caller's balance, the base fee).
    const code = '0x33315f524860205260405ff3'
    const blocks = await call<SimBlock[]>('eth_simulateV1', {
      blockStateCalls: [
        {
          blockOverrides: { baseFeePerGas: '0x3b9aca00' },
          stateOverrides: { [STRANGER]: { balance: '0xde0b6b3a7640000' }, [reader]: { code } },
          calls: [{ from: STRANGER, to: OTHER, value: '0x16345785d8a0000' }, { from: STRANGER, to: reader }],
        },
      ],
    })
    expect(blocks[0].baseFeePerGas).toBe('0x3b9aca00')
    const returned = blocks[0].calls[1].returnData
    // 1 ether less the 0.1 sent: no gas money went anywhere; BASEFEE is the override.
    expect(BigInt(returned.slice(0, 66))).toBe(parseEther('0.9'))
    expect(BigInt(`0x${returned.slice(66)}`)).toBe(10n ** 9n)
  })

    test('numbers an override skips are filled with empty blocks, as geth fills them', async () => {
    const call = rpc(await startNode())
    const head = await call<{ number: string; hash: string; timestamp: string }>('eth_getBlockByNumber', 'latest', false)
    const blocks = await call<SimBlock[]>('eth_simulateV1', {
      blockStateCalls: [{ blockOverrides: { number: '0x4' }, calls: [{ from: STRANGER, to: OTHER }] }],
    })
    expect(blocks.map((block) => block.number)).toEqual(['0x1', '0x2', '0x3', '0x4'])
    expect(blocks.map((block) => block.calls.length)).toEqual([0, 0, 0, 1])
    expect(blocks[0].parentHash).toBe(head.hash)
    for (let i = 1; i < blocks.length; i++) {
      expect(blocks[i].parentHash).toBe(blocks[i - 1].hash)
      expect(BigInt(blocks[i].timestamp)).toBe(BigInt(blocks[i - 1].timestamp) + 1n)
    }
    // The transaction a block lists is the one its call ran: hashes match.
    expect(blocks[3].transactions).toEqual([blocks[3].calls[0] && expect.stringMatching(/^0x[0-9a-f]{64}$/)])
  })

  test('the spec\'s example: traceTransfers logs ETH transfers from 0xeeee…, in order with the contract logs', async () => {
    const { call, tracingAddress, leafAddress } = await tracingChain()
    const [result] = await call<SimBlock[]>('eth_simulateV1', {
      blockStateCalls: [
        {
          stateOverrides: { [STRANGER]: { balance: '0x7d0' } },
          calls: [
            { from: STRANGER, to: OTHER, value: '0x3e8' },
            // nested() stores in the leaf (a Stored log) with the value it got.
            { from: DEV[0].address, to: tracingAddress, value: '0x5', data: tracingAbi.encodeFunctionData('nested', [leafAddress, 9]) },
          ],
        },
      ],
      traceTransfers: true,
    })
    expect(result.calls[0]).toEqual({
      returnData: '0x',
      logs: [expect.objectContaining({
        address: '0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee',
        topics: [TRANSFER_TOPIC, word(STRANGER), word(OTHER)],
        data: word('0x3e8'),
        logIndex: '0x0',
        blockHash: result.hash,
        transactionHash: result.transactions[0],
      })],
      gasUsed: '0x5208',
      maxUsedGas: '0x5208',
      status: '0x1',
    })
    const logs = result.calls[1].logs
    expect(logs[0]).toMatchObject({ address: '0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee', topics: [TRANSFER_TOPIC, word(DEV[0].address), word(tracingAddress)], logIndex: '0x1' })
    // Then nested()'s own logs as they happened: Step, the leaf's Stored, Stored again by DELEGATECALL (so from Tracing), Step.
    expect(logs.slice(1).map((log) => log.address)).toEqual([tracingAddress, leafAddress, tracingAddress, tracingAddress])
    // Without traceTransfers only the contract's own logs.
    const [plain] = await call<SimBlock[]>('eth_simulateV1', { blockStateCalls: [{ calls: [{ from: DEV[0].address, to: tracingAddress, value: '0x5', data: tracingAbi.encodeFunctionData('nested', [leafAddress, 9]) }] }] })
    expect(plain.calls[0].logs.map((log) => log.address)).toEqual([tracingAddress, leafAddress, tracingAddress, tracingAddress])
  })

  test('a revert is code 3 with the reason and its data; other EVM failures -32015', async () => {
    const { call, tracingAddress, leafAddress } = await tracingChain()
    const [block] = await call<SimBlock[]>('eth_simulateV1', {
      blockStateCalls: [
        {
          calls: [
            { to: leafAddress, data: leafAbi.encodeFunctionData('fail', ['nope']) },
            { to: leafAddress, data: leafAbi.encodeFunctionData('spin'), gas: '0x30000' },
            { to: tracingAddress, data: '0x' },
          ],
        },
      ],
    })
    expect(block.calls[0]).toMatchObject({ status: '0x0', logs: [], error: { code: 3, message: 'execution reverted: nope', data: expect.stringMatching(/^0x08c379a0/) } })
    expect(block.calls[1]).toMatchObject({ status: '0x0', gasUsed: '0x30000', error: { code: -32015, message: 'vm execution error: out of gas' } })
    expect(block.calls[2].status).toBe('0x0')
  })

  test('validation: base fee, nonces and funds are checked with the spec\'s codes', async () => {
    const node = await startNode()
    const call = rpc(node)
    const gasPrice = BigInt(await call<string>('eth_gasPrice'))
    const [valid] = await call<SimBlock[]>('eth_simulateV1', { blockStateCalls: [{ calls: [{ from: DEV[0].address, to: OTHER, value: '0x1' }, { from: DEV[0].address, to: OTHER, value: '0x1', nonce: '0x1' }] }], validation: true })
    expect(BigInt(valid.baseFeePerGas)).toBe(gasPrice)
    expect(valid.calls.map((c) => c.status)).toEqual(['0x1', '0x1'])
    const simulateOne = (tx: Record<string, unknown>, overrides?: Record<string, unknown>) =>
      call('eth_simulateV1', { blockStateCalls: [{ calls: [{ from: DEV[0].address, to: OTHER, ...tx }], ...overrides }], validation: true })
    await expectRpcError(simulateOne({ nonce: '0x5' }), -38011, /^nonce too high/)
    await expectRpcError(simulateOne({}, { stateOverrides: { [DEV[0].address]: { nonce: '0x3' } } }).then(() => simulateOne({ nonce: '0x0' }, { stateOverrides: { [DEV[0].address]: { nonce: '0x3' } } })), -38010, /^nonce too low/)
    await expectRpcError(simulateOne({ maxFeePerGas: '0x1' }), -38012, /^max fee per gas less than block base fee/)
    await expectRpcError(simulateOne({ gas: '0x100' }), -38013, /gas limit 256 is lower than the minimum gas limit of 21000/)
    await expectRpcError(call('eth_simulateV1', { blockStateCalls: [{ calls: [{ from: STRANGER, to: OTHER, value: '0x1' }] }], validation: true }), -38014, /^insufficient funds/)
    await expectRpcError(simulateOne({ gas: '0x5208' }, { blockOverrides: { gasLimit: '0x5000' } }), -38015, /^block gas limit reached/)
  })

  test('block order and limits; bad payloads are -32602', async () => {
    const node = await startNode()
    const call = rpc(node)
    await call('evm_mine')
    await expectRpcError(call('eth_simulateV1', { blockStateCalls: [{ blockOverrides: { number: '0x1' } }] }), -38020, /^block number 1 of blockStateCalls\[0\] is not above its parent's 1/)
    await expectRpcError(call('eth_simulateV1', { blockStateCalls: [{ blockOverrides: { time: '0x1' } }] }), -38021, /^block timestamp 1 of blockStateCalls\[0\] is before/)
    await expectRpcError(call('eth_simulateV1', { blockStateCalls: Array.from({ length: 257 }, () => ({})) }), -38026, 'too many blocks: 257, at most 256')
    await expectRpcError(call('eth_simulateV1', {}), -32602, 'invalid argument 0 (payload): blockStateCalls: required')
    await expectRpcError(call('eth_simulateV1', { blockStateCalls: [{ calls: [{ to: '0x12' }] }] }), -32602, /^invalid argument 0 \(payload\): blockStateCalls: calls: to: /)
    await expectRpcError(
      call('eth_simulateV1', { blockStateCalls: [{ stateOverrides: { [OTHER]: { movePrecompileToAddress: STRANGER } } }] }),
      -32602,
      /movePrecompileToAddress is not supported/,
    )
    await expectRpcError(call('eth_simulateV1', { blockStateCalls: [] }, '0x99'), -32000, 'header not found')
    // At an older block: simulated on its state, numbered after it.
    const [atGenesis] = await call<SimBlock[]>('eth_simulateV1', { blockStateCalls: [{}] }, '0x0')
    expect(atGenesis.number).toBe('0x1')
    expect(atGenesis.parentHash).toBe((await call<{ hash: string }>('eth_getBlockByNumber', '0x0', false)).hash)
  })
})
