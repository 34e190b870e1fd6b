import { getCreateAddress, id, Interface, keccak256, toBeHex, Transaction, Wallet, zeroPadValue, type InterfaceAbi } from 'ethers'
import { createPublicClient, createWalletClient, custom, type Hex } from 'viem'
import { sendRawTransactionSync } from 'viem/actions'
import { zksyncInMemoryNode } from 'viem/chains'
import { describe, expect, test } from 'vitest'
import type { Node } from '../../../../../src/core/node.ts'
import { artifacts, DEV, eip1193, GAS_PRICE, mineBlock, rpc, startNode } from '../../../../support/chain.ts'
import { expectRpcError } from '../../../../support/expectRpc.ts'
import { signTx, txHash } from '../../../../support/rawTx.ts'

let node: Node | undefined

async function fresh(config: Parameters<typeof startNode>[0] = {}) {
  node = await startNode(config)
  return rpc(node)
}

type Call = ReturnType<typeof rpc>
type Tx = Record<string, unknown> & { hash: string; blockHash: string | null }
type Log = Record<string, unknown> & { logIndex: string; transactionLogIndex: string; topics: string[] }
type Receipt = Record<string, unknown> & {
  blockHash: string
  gasUsed: string
  cumulativeGasUsed: string
  logs: Log[]
  status: string
  contractAddress: string | null
}
interface Block {
  hash: string
  number: string
}

const hex = (n: bigint | number) => `0x${n.toString(16)}`
const probe = new Interface(artifacts.Probe.abi as InterfaceAbi)

/**
 * era's transaction keys, in its order (authorizationList sits with accessList; docs/zksync.md,
 * "Response shapes").
 */
const EIP1559_TX_KEYS = [
  'hash', 'nonce', 'blockHash', 'blockNumber', 'transactionIndex', 'from', 'to', 'value', 'gasPrice', 'gas',
  'input', 'yParity', 'v', 'r', 's', 'type', 'accessList', 'maxFeePerGas', 'maxPriorityFeePerGas', 'chainId',
  'l1BatchNumber', 'l1BatchTxIndex', 'blockTimestamp',
]
const RECEIPT_KEYS = [
  'transactionHash', 'transactionIndex', 'blockHash', 'blockNumber', 'l1BatchTxIndex', 'l1BatchNumber', 'from',
  'to', 'cumulativeGasUsed', 'gasUsed', 'contractAddress', 'logs', 'l2ToL1Logs', 'status', 'logsBloom', 'type',
  'effectiveGasPrice',
]
const LOG_KEYS = [
  'address', 'topics', 'data', 'blockHash', 'blockNumber', 'l1BatchNumber', 'transactionHash', 'transactionIndex',
  'logIndex', 'transactionLogIndex', 'logType', 'removed', 'blockTimestamp',
]

/** Deploys Probe (block 1, automine) and returns its address. */
async function deployProbe(call: Call, nonce = 0): Promise<string> {
  const hash = await call<string>(
    'eth_sendRawTransaction',
    await signTx(DEV[0].key, { nonce, to: null, value: 0n, data: artifacts.Probe.bytecode, gasLimit: 1_000_000n }),
  )
  if (node!.config.mining.mode === 'manual') await mineBlock(node!)
  return (await call<Receipt>('eth_getTransactionReceipt', hash)).contractAddress!
}

function callProbe(to: string, method: string, args: unknown[], fields: Parameters<typeof signTx>[1] = {}) {
  return signTx(DEV[0].key, { to, value: 0n, data: probe.encodeFunctionData(method, args), gasLimit: 200_000n, ...fields })
}

describe('eth_getTransactionByHash', () => {
  test('a mined EIP-1559 transaction: keys in order, values from the signed bytes and the block', async () => {
    const call = await fresh()
    const raw = await signTx(DEV[0].key, {
      value: 5n,
      maxFeePerGas: 2n * GAS_PRICE,
      maxPriorityFeePerGas: 1000n,
      data: '0x1234',
      gasLimit: 30_000n,
    })
    const signed = Transaction.from(raw)
    const hash = await call<string>('eth_sendRawTransaction', raw)
    const block = await call<Block>('eth_getBlockByNumber', 'latest', false)
    const tx = await call<Tx>('eth_getTransactionByHash', hash)
    expect(Object.keys(tx)).toEqual(EIP1559_TX_KEYS)
    expect(tx).toEqual({
      hash: signed.hash,
      nonce: '0x0',
      blockHash: block.hash,
      blockNumber: '0x1',
      transactionIndex: '0x0',
      from: DEV[0].address,
      to: DEV[1].address,
      value: '0x5',
      // Mined: what was paid per gas, base fee plus the tip.
      gasPrice: hex(GAS_PRICE + 1000n),
      gas: hex(30_000),
      input: '0x1234',
      yParity: hex(signed.signature!.yParity),
      v: hex(signed.signature!.yParity),
      r: signed.signature!.r.replace(/^0x0+/, '0x'),
      s: signed.signature!.s.replace(/^0x0+/, '0x'),
      type: '0x2',
      accessList: [],
      maxFeePerGas: hex(2n * GAS_PRICE),
      maxPriorityFeePerGas: '0x3e8',
      chainId: '0x104',
      l1BatchNumber: '0x1',
      l1BatchTxIndex: '0x0',
      blockTimestamp: (block as unknown as { timestamp: string }).timestamp,
    })
  })

  test('a legacy EIP-155 transaction: v carries the chain id, no yParity or accessList', async () => {
    const call = await fresh()
    const raw = await signTx(DEV[0].key, { type: 0, gasPrice: 2n * GAS_PRICE })
    const hash = await call<string>('eth_sendRawTransaction', raw)
    const tx = await call<Tx>('eth_getTransactionByHash', hash)
    expect(Object.keys(tx)).toEqual(EIP1559_TX_KEYS.filter((key) => key !== 'yParity' && key !== 'accessList'))
    const v = BigInt(tx.v as string)
    expect(v === 555n || v === 556n).toBe(true) // 35 + 2·260 + yParity
    expect(tx).toMatchObject({ type: '0x0', gasPrice: hex(2n * GAS_PRICE), maxFeePerGas: hex(2n * GAS_PRICE), chainId: '0x104' })
  })

  test('an EIP-7702 transaction lists its authorizations with quantities in minimal hex', async () => {
    const call = await fresh()
    const target = '0x1111111111111111111111111111111111111111'
    const auth = await new Wallet(DEV[2].key).authorize({ address: target, nonce: 0n, chainId: 260n })
    const raw = await signTx(DEV[0].key, { type: 4, authorizationList: [auth], gasLimit: 100_000n })
    const hash = await call<string>('eth_sendRawTransaction', raw)
    const tx = await call<Tx>('eth_getTransactionByHash', hash)
    expect(Object.keys(tx)).toEqual([...EIP1559_TX_KEYS.slice(0, 17), 'authorizationList', ...EIP1559_TX_KEYS.slice(17)])
    expect(tx.authorizationList).toEqual([
      {
        chainId: '0x104',
        address: target,
        nonce: '0x0',
        yParity: hex(auth.signature.yParity),
        r: toBeHex(auth.signature.r).replace(/^0x0+/, '0x'),
        s: toBeHex(auth.signature.s).replace(/^0x0+/, '0x'),
      },
    ])
  })

  test('a pending transaction has no block: null placement, gasPrice is the fee cap', async () => {
    const call = await fresh({ mining: { mode: 'manual' } })
    const hash = await call<string>('eth_sendRawTransaction', await signTx(DEV[0].key, { maxPriorityFeePerGas: 1000n }))
    const tx = await call<Tx>('eth_getTransactionByHash', hash)
    expect(Object.keys(tx)).toEqual(EIP1559_TX_KEYS)
    expect(tx).toMatchObject({
      hash,
      blockHash: null,
      blockNumber: null,
      transactionIndex: null,
      l1BatchNumber: null,
      l1BatchTxIndex: null,
      blockTimestamp: null,
      from: DEV[0].address,
      gasPrice: hex(2n * GAS_PRICE),
    })
    expect(await call('eth_getTransactionReceipt', hash)).toBeNull()
  })

  test('an unknown hash gives null; hashes match in any case', async () => {
    const call = await fresh()
    const hash = await call<string>('eth_sendRawTransaction', await signTx(DEV[0].key))
    expect(await call('eth_getTransactionByHash', keccak256('0x00'))).toBeNull()
    expect(await call('eth_getTransactionReceipt', keccak256('0x00'))).toBeNull()
    expect((await call<Tx>('eth_getTransactionByHash', hash.toUpperCase().replace('0X', '0x'))).hash).toBe(hash)
  })
})

describe('transactions by block and index', () => {
  test('each index of a block, by number, tag and hash; out of range or unknown block gives null', async () => {
    const call = await fresh({ mining: { mode: 'manual' } })
    const hashes = [
      await call<string>('eth_sendRawTransaction', await signTx(DEV[0].key)),
      await call<string>('eth_sendRawTransaction', await signTx(DEV[1].key, { to: DEV[0].address })),
    ]
    await mineBlock(node!)
    const block = await call<Block>('eth_getBlockByNumber', '0x1', false)
    for (const [index, hash] of hashes.entries()) {
      const expected = await call<Tx>('eth_getTransactionByHash', hash)
      expect(expected.transactionIndex).toBe(hex(index))
      expect(await call('eth_getTransactionByBlockNumberAndIndex', '0x1', hex(index))).toEqual(expected)
      expect(await call('eth_getTransactionByBlockNumberAndIndex', 'latest', hex(index))).toEqual(expected)
      expect(await call('eth_getTransactionByBlockHashAndIndex', block.hash, hex(index))).toEqual(expected)
    }
    expect(await call('eth_getTransactionByBlockNumberAndIndex', '0x1', '0x2')).toBeNull()
    expect(await call('eth_getTransactionByBlockHashAndIndex', block.hash, '0xffffffffffffffff')).toBeNull()
    expect(await call('eth_getTransactionByBlockNumberAndIndex', '0x0', '0x0')).toBeNull()
    expect(await call('eth_getTransactionByBlockNumberAndIndex', '0x2', '0x0')).toBeNull()
    expect(await call('eth_getTransactionByBlockHashAndIndex', keccak256('0x'), '0x0')).toBeNull()
  })
})

describe('eth_getTransactionReceipt', () => {
  test('a transfer: keys in order, ZKsync batch fields, gas and price', async () => {
    const call = await fresh()
    const hash = await call<string>('eth_sendRawTransaction', await signTx(DEV[0].key))
    const block = await call<Block>('eth_getBlockByNumber', 'latest', false)
    const receipt = await call<Receipt>('eth_getTransactionReceipt', hash)
    expect(Object.keys(receipt)).toEqual(RECEIPT_KEYS)
    expect(receipt).toEqual({
      transactionHash: hash,
      transactionIndex: '0x0',
      blockHash: block.hash,
      blockNumber: '0x1',
      l1BatchTxIndex: '0x0',
      l1BatchNumber: '0x1',
      from: DEV[0].address,
      to: DEV[1].address,
      cumulativeGasUsed: '0x5208',
      gasUsed: '0x5208',
      contractAddress: null,
      logs: [],
      l2ToL1Logs: [],
      status: '0x1',
      logsBloom: `0x${'00'.repeat(256)}`,
      type: '0x2',
      effectiveGasPrice: hex(GAS_PRICE),
    })
  })

  test('a deployment names the created contract and has no `to`', async () => {
    const call = await fresh()
    await call('eth_sendRawTransaction', await signTx(DEV[0].key))
    const hash = await call<string>(
      'eth_sendRawTransaction',
      await signTx(DEV[0].key, { nonce: 1, to: null, value: 0n, data: artifacts.Probe.bytecode, gasLimit: 1_000_000n }),
    )
    const receipt = await call<Receipt>('eth_getTransactionReceipt', hash)
    const expected = getCreateAddress({ from: DEV[0].address, nonce: 1 }).toLowerCase()
    expect(receipt).toMatchObject({ to: null, contractAddress: expected, status: '0x1' })
    expect(await call('eth_getCode', expected, 'latest')).toBe(artifacts.Probe.deployedBytecode)
    expect((await call<Tx>('eth_getTransactionByHash', hash)).to).toBeNull()
  })

  test('a reverted transaction sent with its own gas limit is mined with status 0 and pays for its gas', async () => {
    const call = await fresh()
    const address = await deployProbe(call)
    const before = BigInt(await call<string>('eth_getBalance', DEV[0].address, 'latest'))
    const raw = await callProbe(address, 'failWith', ['nope'], { nonce: 1, gasLimit: 100_000n })
    const hash = await call<string>('eth_sendRawTransaction', raw)
    const receipt = await call<Receipt>('eth_getTransactionReceipt', hash)
    expect(receipt).toMatchObject({ status: '0x0', contractAddress: null, logs: [], blockNumber: '0x2' })
    const gasUsed = BigInt(receipt.gasUsed)
    expect(gasUsed > 21_000n && gasUsed < 100_000n).toBe(true)
    expect(BigInt(await call<string>('eth_getBalance', DEV[0].address, 'latest'))).toBe(before - gasUsed * GAS_PRICE)
    expect(await call('eth_getTransactionCount', DEV[0].address, 'latest')).toBe('0x2')
  })

  test('logs: block-wide logIndex, per-transaction transactionLogIndex, running cumulativeGasUsed', async () => {
    const call = await fresh({ mining: { mode: 'manual' } })
    const address = await deployProbe(call)
    const first = await call<string>('eth_sendRawTransaction', await callProbe(address, 'set', [9], { nonce: 1 }))
    const second = await call<string>('eth_sendRawTransaction', await callProbe(address, 'ping', [3], { nonce: 2 }))
    await mineBlock(node!)
    const block = await call<Block & { timestamp: string }>('eth_getBlockByNumber', 'latest', false)
    const [a, b] = await Promise.all([first, second].map((h) => call<Receipt>('eth_getTransactionReceipt', h)))

    expect(a.cumulativeGasUsed).toBe(a.gasUsed)
    expect(BigInt(b.cumulativeGasUsed)).toBe(BigInt(a.gasUsed) + BigInt(b.gasUsed))

    expect(a.logs).toHaveLength(1)
    expect(Object.keys(a.logs[0])).toEqual(LOG_KEYS)
    expect(a.logs[0]).toEqual({
      address,
      topics: [id('ValueSet(address,uint256,string)'), zeroPadValue(DEV[0].address, 32), zeroPadValue('0x09', 32)],
      data: probe.getAbiCoder().encode(['string'], ['set']),
      blockHash: block.hash,
      blockNumber: block.number,
      l1BatchNumber: block.number,
      transactionHash: first,
      transactionIndex: '0x0',
      logIndex: '0x0',
      transactionLogIndex: '0x0',
      logType: null,
      removed: false,
      blockTimestamp: block.timestamp,
    })
    expect(b.logs.map((log) => [log.logIndex, log.transactionLogIndex, log.topics[1]])).toEqual([
      ['0x1', '0x0', zeroPadValue('0x00', 32)],
      ['0x2', '0x1', zeroPadValue('0x01', 32)],
      ['0x3', '0x2', zeroPadValue('0x02', 32)],
    ])
    expect(b.logs.every((log) => log.transactionIndex === '0x1' && log.transactionHash === second)).toBe(true)
    expect(BigInt(b.logsBloom as string)).not.toBe(0n)
  })
})

describe('eth_getBlockReceipts', () => {
  test('every receipt of a block, in order, by number, tag or hash', async () => {
    const call = await fresh({ mining: { mode: 'manual' } })
    const hashes = [
      await call<string>('eth_sendRawTransaction', await signTx(DEV[0].key)),
      await call<string>('eth_sendRawTransaction', await signTx(DEV[1].key)),
      await call<string>('eth_sendRawTransaction', await signTx(DEV[0].key, { nonce: 1 })),
    ]
    await mineBlock(node!)
    const receipts = await Promise.all(hashes.map((h) => call('eth_getTransactionReceipt', h)))
    const block = await call<Block>('eth_getBlockByNumber', '0x1', false)
    expect(await call('eth_getBlockReceipts', '0x1')).toEqual(receipts)
    expect(await call('eth_getBlockReceipts', 'latest')).toEqual(receipts)
    expect(await call('eth_getBlockReceipts', { blockHash: block.hash })).toEqual(receipts)
    expect(await call('eth_getBlockReceipts', { blockNumber: '0x1' })).toEqual(receipts)
  })

  test('an empty block has none; an unknown block gives null', async () => {
    const call = await fresh()
    expect(await call('eth_getBlockReceipts', 'earliest')).toEqual([])
    expect(await call('eth_getBlockReceipts', '0x1')).toBeNull()
    expect(await call('eth_getBlockReceipts', { blockHash: keccak256('0x') })).toBeNull()
  })
})

describe('bad params', () => {
  test.each([
    ['eth_getTransactionByHash', ['0x1234'], /^invalid argument 0 \(transactionHash\): expected a 32-byte hash/],
    ['eth_getTransactionByHash', [1], /^invalid argument 0 \(transactionHash\): /],
    ['eth_getTransactionByHash', [], 'missing value for required argument 0 (transactionHash)'],
    ['eth_getTransactionByHash', [keccak256('0x'), 'latest'], 'too many arguments, want at most 1'],
    ['eth_getTransactionReceipt', [keccak256('0x').slice(2)], /^invalid argument 0 \(transactionHash\): /],
    ['eth_getTransactionReceipt', [], 'missing value for required argument 0 (transactionHash)'],
    ['eth_getTransactionByBlockNumberAndIndex', ['latest', '0x'], /^invalid argument 1 \(index\): /],
    ['eth_getTransactionByBlockNumberAndIndex', ['latest', 0], /^invalid argument 1 \(index\): /],
    ['eth_getTransactionByBlockNumberAndIndex', ['latest', '0x00'], /^invalid argument 1 \(index\): /],
    ['eth_getTransactionByBlockNumberAndIndex', ['latest'], 'missing value for required argument 1 (index)'],
    ['eth_getTransactionByBlockNumberAndIndex', [1, '0x0'], /^invalid argument 0 \(block\): /],
    ['eth_getTransactionByBlockHashAndIndex', ['0x12', '0x0'], /^invalid argument 0 \(blockHash\): /],
    ['eth_getTransactionByBlockHashAndIndex', [keccak256('0x'), '0x0', '0x0'], 'too many arguments, want at most 2'],
    ['eth_getBlockReceipts', [], 'missing value for required argument 0 (block)'],
    ['eth_getBlockReceipts', ['0x1x'], /^invalid argument 0 \(block\): /],
  ])('%s %j → -32602', async (method, params, message) => {
    const call = await fresh()
    await expectRpcError(call(method, ...params), -32602, message)
  })
})

test('eth_sendRawTransaction answers the transaction hash: keccak of the raw bytes', async () => {
  const call = await fresh()
  const raw = await signTx(DEV[0].key)
  expect(await call('eth_sendRawTransaction', raw)).toBe(keccak256(raw))
  expect(txHash(raw)).toBe(keccak256(raw))
})

describe('eth_sendRawTransactionSync (EIP-7966)', () => {
  test('viem sendRawTransactionSync gets the receipt of the mined transaction', async () => {
    const call = await fresh()
    const client = createWalletClient({ chain: zksyncInMemoryNode, transport: custom(eip1193(node!)) })
    const raw = (await signTx(DEV[0].key, { value: 7n })) as Hex
    const receipt = await sendRawTransactionSync(client, { serializedTransaction: raw, timeout: 5_000 })
    expect(receipt).toMatchObject({ transactionHash: keccak256(raw), status: 'success', blockNumber: 1n })
    const raw2 = await signTx(DEV[0].key, { nonce: 1 })
    // Over JSON-RPC: exactly what eth_getTransactionReceipt answers afterwards.
    expect(await call('eth_sendRawTransactionSync', raw2)).toEqual(await call('eth_getTransactionReceipt', keccak256(raw2)))
  })

  test('under interval mining it waits for the block that takes the transaction', async () => {
    const call = await fresh({ mining: { mode: 'interval', intervalMs: 50 } })
    const raw = await signTx(DEV[0].key)
    const receipt = await call<Receipt>('eth_sendRawTransactionSync', raw, '0x2710')
    expect(receipt).toEqual(await call('eth_getTransactionReceipt', keccak256(raw)))
    expect(receipt.status).toBe('0x1')
  })

  test('not mined in time: code 4, the hash as data, and the transaction stays in the pool', async () => {
    const call = await fresh({ mining: { mode: 'manual' } })
    const raw = await signTx(DEV[0].key)
    const error = await expectRpcError(
      call('eth_sendRawTransactionSync', raw, 50),
      4,
      "The transaction was added to the transaction pool but wasn't processed in 0.05s.",
    )
    expect(error.data).toBe(keccak256(raw))
    expect(await call<Tx>('eth_getTransactionByHash', keccak256(raw))).toMatchObject({ blockHash: null })
  })

  test('a refused transaction is refused as eth_sendRawTransaction refuses it; a bad timeout is -32602', async () => {
    const call = await fresh()
    await call('eth_sendRawTransaction', await signTx(DEV[0].key, { nonce: 0 }))
    await expectRpcError(call('eth_sendRawTransactionSync', await signTx(DEV[0].key, { nonce: 0, value: 2n })), -32000, /^nonce too low/)
    await expectRpcError(call('eth_sendRawTransactionSync', await signTx(DEV[0].key, { nonce: 1 }), 'soon'), -32602, /^invalid argument 1 \(timeout\)/)
  })
})

describe('eth_getTransactionBySenderAndNonce', () => {
  test('viem getTransaction({sender, nonce}) finds each mined transaction; null for a nonce not mined', async () => {
    const call = await fresh({ mining: { mode: 'manual' } })
    const hashes = []
    for (let nonce = 0; nonce < 3; nonce++) hashes.push(await call<string>('eth_sendRawTransaction', await signTx(DEV[0].key, { nonce })))
    await mineBlock(node!)
    hashes.push(await call<string>('eth_sendRawTransaction', await signTx(DEV[1].key, { nonce: 0 })))
    await mineBlock(node!)
    const client = createPublicClient({ chain: zksyncInMemoryNode, transport: custom(eip1193(node!)) })
    for (let nonce = 0; nonce < 3; nonce++) {
      const tx = await client.getTransaction({ sender: DEV[0].address as Hex, nonce })
      expect(tx).toMatchObject({ hash: hashes[nonce], nonce, blockNumber: 1n, transactionIndex: nonce })
    }
    expect((await client.getTransaction({ sender: DEV[1].address as Hex, nonce: 0 })).hash).toBe(hashes[3])
    expect(await call('eth_getTransactionBySenderAndNonce', DEV[0].address, '0x3')).toBeNull()
    expect(await call('eth_getTransactionBySenderAndNonce', DEV[2].address, '0x0')).toBeNull()
    // The same object eth_getTransactionByHash answers.
    expect(await call('eth_getTransactionBySenderAndNonce', DEV[0].address.toUpperCase().replace('0X', '0x'), '0x1')).toEqual(
      await call('eth_getTransactionByHash', hashes[1]),
    )
  })

  test('the index follows the chain: a reverted block forgets its transactions, a new one takes the nonce', async () => {
    const call = await fresh()
    const snapshot = await call<string>('evm_snapshot')
    const first = await call<string>('eth_sendRawTransaction', await signTx(DEV[0].key, { nonce: 0, value: 1n }))
    expect(await call<Tx>('eth_getTransactionBySenderAndNonce', DEV[0].address, '0x0')).toMatchObject({ hash: first })
    await call('evm_revert', snapshot)
    expect(await call('eth_getTransactionBySenderAndNonce', DEV[0].address, '0x0')).toBeNull()
    const second = await call<string>('eth_sendRawTransaction', await signTx(DEV[0].key, { nonce: 0, value: 2n }))
    expect(await call<Tx>('eth_getTransactionBySenderAndNonce', DEV[0].address, '0x0')).toMatchObject({ hash: second })
  })

  test('bad params are -32602', async () => {
    const call = await fresh()
    await expectRpcError(call('eth_getTransactionBySenderAndNonce', '0x12', '0x0'), -32602, /^invalid argument 0 \(sender\)/)
    await expectRpcError(call('eth_getTransactionBySenderAndNonce', DEV[0].address, 1), -32602, /^invalid argument 1 \(nonce\)/)
  })
})
