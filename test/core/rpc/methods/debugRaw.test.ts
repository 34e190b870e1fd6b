import { decodeRlp, getBytes, keccak256, Transaction } from 'ethers'
import { describe, expect, test } from 'vitest'
import { orderedTrieRoot } from '../../../../src/core/exec/orderedTrie.ts'
import { MemoryStore } from '../../../../src/core/index.ts'
import { bytesToHex } from '../../../../src/core/hexText.ts'
import { deploy, DEV, devWallet, mineBlock, rpc, startNode } from '../../../support/chain.ts'
import { expectRpcError } from '../../../support/expectRpc.ts'
import { signTx } from '../../../support/rawTx.ts'
import { zksyncWallet } from '../../../support/zksync.ts'

interface Block {
  hash: string
  parentHash: string
  stateRoot: string
  transactionsRoot: string
  receiptsRoot: string
  transactions: string[]
  size: string
}

const root = (items: string[]) => bytesToHex(orderedTrieRoot(items.map((item) => getBytes(item))))

describe('debug_getRaw*', () => {
  test('a block of legacy, EIP-1559 and ZKsync 0x71 transactions with logs: the bytes its header commits to', async () => {
    const node = await startNode({ mining: { mode: 'manual' } })
    const call = rpc(node)
    // A contract first (logs in the block below come from it).
    const deploying = deploy(devWallet(node, 2), 'Token', 'T', 'T', 1000n)
    await expect.poll(() => node.pool.size).toBe(1)
    await mineBlock(node)
    const token = await deploying
    const hashes = [
      await call<string>('eth_sendRawTransaction', await signTx(DEV[0].key, { type: 0, gasPrice: 10n ** 9n })),
      await call<string>('eth_sendRawTransaction', await signTx(DEV[0].key, { nonce: 1, value: 3n })),
    ]
    const zk = zksyncWallet(node, 1)
    const sending = zk.sendTransaction({ to: DEV[0].address, value: 5n })
    await expect.poll(() => node.pool.size).toBe(3)
    const transfer = (token.connect(devWallet(node, 2)) as typeof token).getFunction('transfer')
    const transferring = transfer(DEV[1].address, 7n)
    await expect.poll(() => node.pool.size).toBe(4)
    await mineBlock(node)
    hashes.push((await sending).hash, (await transferring).hash)

    const block = await call<Block>('eth_getBlockByNumber', '0x2', false)
    expect(block.transactions).toHaveLength(4)
    const header = await call<string>('debug_getRawHeader', '0x2')
    expect(keccak256(header)).toBe(block.hash)

    const raw = await call<string>('debug_getRawBlock', '0x2')
    expect(BigInt(getBytes(raw).length)).toBe(BigInt(block.size))
    const [headerFields, txs, uncles, withdrawals] = decodeRlp(raw) as [string[], (string | string[])[], unknown[], unknown[]]
    expect(headerFields[0]).toBe(block.parentHash)
    expect(headerFields[3]).toBe(block.stateRoot)
    expect([uncles, withdrawals]).toEqual([[], []])

    const rawTxs = await Promise.all(block.transactions.map((hash) => call<string>('debug_getRawTransaction', hash)))
    // Ethereum transactions hash to their bytes; a 0x71 one's hash is ZKsync's (EIP-712), not keccak of them.
    expect(rawTxs.map((tx, i) => (i === 2 ? block.transactions[2] : keccak256(tx)))).toEqual(block.transactions)
    expect(root(rawTxs)).toBe(block.transactionsRoot)
    // The legacy one is embedded in the block as its RLP list, the typed ones as strings.
    expect(Array.isArray(txs[0])).toBe(true)
    expect(txs.slice(1)).toEqual(rawTxs.slice(1))
    expect(Transaction.from(rawTxs[1]).from?.toLowerCase()).toBe(DEV[0].address)
    // The 0x71 one is its EIP-712 envelope, as submitted.
    expect(rawTxs[2].slice(0, 4)).toBe('0x71')

    const receipts = await call<string[]>('debug_getRawReceipts', '0x2')
    expect(receipts).toHaveLength(4)
    expect(root(receipts)).toBe(block.receiptsRoot)
    expect(receipts.map((receipt) => receipt.slice(0, 4))).toEqual([expect.not.stringMatching(/^0x0[0-4]/), '0x02', '0x71', '0x02'])
    // status, cumulative gas, bloom, logs: the token transfer's Transfer event is there.
    const [status, , , logs] = decodeRlp(`0x${receipts[3].slice(4)}`) as [string, string, string, string[][]]
    expect(status).toBe('0x01')
    expect(logs[0][0]).toBe((await token.getAddress()).toLowerCase())
  })

  test('by tag and hash; genesis has no receipts; unknowns as geth answers them', async () => {
    const node = await startNode()
    const call = rpc(node)
    const genesis = await call<Block>('eth_getBlockByNumber', '0x0', false)
    expect(keccak256(await call<string>('debug_getRawHeader', 'earliest'))).toBe(genesis.hash)
    expect(await call('debug_getRawReceipts', { blockHash: genesis.hash })).toEqual([])
    expect(await call('debug_getRawBlock', 'latest')).toBe(await call('debug_getRawBlock', '0x0'))
    await expectRpcError(call('debug_getRawBlock', '0x9'), -32000, 'header not found')
    await expectRpcError(call('debug_getRawHeader', '2'), -32602, /^invalid argument 0 \(block\)/)
    // A hash it does not know: geth's empty bytes.
    expect(await call('debug_getRawTransaction', keccak256('0x01'))).toBe('0x')
    await expectRpcError(call('debug_getRawTransaction', '0x01'), -32602, /^invalid argument 0 \(transactionHash\)/)
  })

  test('a chain reopened from its store gives the same bytes (blocks decoded from their records)', async () => {
    const store = new MemoryStore()
    const first = await startNode({ store })
    const call = rpc(first)
    const token = await deploy(devWallet(first), 'Token', 'T', 'T', 1000n)
    await (await (token.getFunction('transfer') as (to: string, value: bigint) => Promise<{ wait(): Promise<unknown> }>)(DEV[1].address, 5n)).wait()
    await call('eth_sendRawTransaction', await signTx(DEV[1].key, { type: 0, gasPrice: 10n ** 9n }))
    const before = await Promise.all(['0x1', '0x2', '0x3'].flatMap((n) => [call('debug_getRawBlock', n), call('debug_getRawReceipts', n)]))
    await first.close()
    const reopened = rpc(await startNode({ store }))
    const after = await Promise.all(['0x1', '0x2', '0x3'].flatMap((n) => [reopened('debug_getRawBlock', n), reopened('debug_getRawReceipts', n)]))
    expect(after).toEqual(before)
    const block = await reopened<Block>('eth_getBlockByNumber', '0x2', false)
    expect(root(await reopened<string[]>('debug_getRawReceipts', '0x2'))).toBe(block.receiptsRoot)
  })

  test('a pending transaction is found too (geth looks in the pool)', async () => {
    const node = await startNode({ mining: { mode: 'manual' } })
    const call = rpc(node)
    const raw = await signTx(DEV[0].key)
    const hash = await call<string>('eth_sendRawTransaction', raw)
    expect(await call('debug_getRawTransaction', hash)).toBe(raw)
  })
})
