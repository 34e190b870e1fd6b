import { dataSlice, keccak256 } from 'ethers'
import { describe, expect, test } from 'vitest'
import { DEV, mineBlock } from '../../../support/chain.ts'
import { expectRpcError } from '../../../support/expectRpc.ts'
import { signTx } from '../../../support/rawTx.ts'
import { hex, leafAbi, tracingAbi, tracingChain, word } from '../../../support/tracing.ts'

interface Search {
  txs: { hash: string; blockNumber: string }[]
  receipts: { transactionHash: string; timestamp: string; status: string }[]
  firstPage: boolean
  lastPage: boolean
}

const SALT = `0x${'5a'.repeat(32)}`

describe('Otterscan (ots_)', () => {
  test('ots_traceTransaction and ots_getInternalOperations: the call tree and the value movements, as anvil lists them', async () => {
    const { tracing, leafAddress, tracingAddress, call, send } = await tracingChain()
    const nested = await send(tracing.nested(leafAddress, 7, { value: 5 }))
    const sender = DEV[0].address
    expect(await call('ots_traceTransaction', nested.hash)).toEqual([
      { type: 'CALL', depth: 0, from: sender, to: tracingAddress, value: '0x5', input: nested.tx.input, output: word(7) },
      { type: 'CALL', depth: 1, from: tracingAddress, to: leafAddress, value: '0x0', input: leafAbi.encodeFunctionData('store', [7]), output: '0x' },
      { type: 'STATICCALL', depth: 1, from: tracingAddress, to: leafAddress, value: '0x0', input: leafAbi.encodeFunctionData('peek'), output: word(7) },
      { type: 'DELEGATECALL', depth: 1, from: tracingAddress, to: leafAddress, value: '0x5', input: leafAbi.encodeFunctionData('store', [8]), output: '0x' },
    ])
    expect(await call('ots_getInternalOperations', nested.hash)).toEqual([{ type: 0, from: sender, to: tracingAddress, value: '0x5' }])

    const creates = await send(tracing.creates(SALT, { value: 10 }))
    const [a, b] = tracingAbi.decodeFunctionResult('creates', (await call<{ output: string }[]>('ots_traceTransaction', creates.hash))[0].output)
    expect(await call('ots_getInternalOperations', creates.hash)).toEqual([
      { type: 0, from: sender, to: tracingAddress, value: hex(10) },
      { type: 2, from: tracingAddress, to: a.toLowerCase(), value: hex(5) },
      { type: 3, from: tracingAddress, to: b.toLowerCase(), value: hex(5) },
    ])
    expect(await call('ots_traceTransaction', keccak256('0x01'))).toEqual([])
    await expectRpcError(call('ots_getInternalOperations', keccak256('0x01')), -32000, /not found/)
  })

  test('ots_getTransactionError: the revert data of a failed transaction, 0x otherwise', async () => {
    const { tracingAddress, call, sendRaw, send, tracing, leafAddress } = await tracingChain()
    const failed = await sendRaw({ to: tracingAddress, data: tracingAbi.encodeFunctionData('fail', ['boom']) })
    expect(failed.receipt.status).toBe('0x0')
    const data = await call<string>('ots_getTransactionError', failed.hash)
    expect(dataSlice(data, 0, 4)).toBe('0x08c379a0')
    expect(tracingAbi.decodeErrorResult('Error', data)[0]).toBe('boom')
    expect(await call('ots_getTransactionError', (await send(tracing.nested(leafAddress, 1))).hash)).toBe('0x')
    expect(await call('ots_getTransactionError', keccak256('0x01'))).toBe('0x')
  })

  test('block details and pages of a block\'s transactions with their receipts', async () => {
    const { node, call } = await tracingChain({ mining: { mode: 'manual' } })
    const hashes = []
    for (let nonce = 2; nonce < 9; nonce++) hashes.push(await call<string>('eth_sendRawTransaction', await signTx(DEV[0].key, { nonce, value: 100n })))
    await mineBlock(node)
    const number = Number(await call<string>('eth_blockNumber'))
    const details = await call<{ block: Record<string, unknown>; issuance: unknown; totalFees: string }>('ots_getBlockDetails', number)
    const block = await call<Record<string, unknown>>('eth_getBlockByNumber', hex(number), false)
    const { transactions: _, ...header } = block
    expect(details.block).toEqual({ ...header, transactionCount: 7 })
    expect(details.issuance).toEqual({ blockReward: '0x0', uncleReward: '0x0', issuance: '0x0' })
    const receipts = await call<{ gasUsed: string; effectiveGasPrice: string }[]>('eth_getBlockReceipts', hex(number))
    expect(BigInt(details.totalFees)).toBe(receipts.reduce((sum, r) => sum + BigInt(r.gasUsed) * BigInt(r.effectiveGasPrice), 0n))
    expect(await call('ots_getBlockDetailsByHash', block.hash)).toEqual(details)
    expect(await call('ots_getBlockDetails', hex(number))).toEqual(details)

    const seen: string[] = []
    for (let page = 0; page < 3; page++) {
      const result = await call<{ fullblock: { transactions: { hash: string }[]; transactionCount: number }; receipts: { transactionHash: string; timestamp: string }[] }>('ots_getBlockTransactions', number, page, 3)
      expect(result.fullblock.transactionCount).toBe(7)
      expect(result.receipts.map((r) => r.transactionHash)).toEqual(result.fullblock.transactions.map((tx) => tx.hash))
      expect(result.receipts.every((r) => r.timestamp === block.timestamp)).toBe(true)
      seen.push(...result.receipts.map((r) => r.transactionHash))
    }
    expect(seen).toEqual(hashes)
    await expectRpcError(call('ots_getBlockDetails', 99), -32000, 'block not found')
  })

  test('searching an address: sender, recipient and internal calls, newest first, page by page both ways', async () => {
    const { tracing, leafAddress, tracingAddress, call, send, node } = await tracingChain()
    // Blocks 1 and 2 deployed Leaf and Tracing. The leaf is then reached only inside calls.
    const touching = []
    for (let v = 1; v <= 5; v++) touching.push((await send(tracing.nested(leafAddress, v))).hash)
    await call('eth_sendRawTransaction', await signTx(DEV[1].key, { to: DEV[2].address }))
    const deployment = (await call<Search>('ots_searchTransactionsAfter', leafAddress, 0, 1)).txs
    expect(deployment.map((tx) => tx.blockNumber)).toEqual(['0x1'])

    // Before: newest first, two per page, until the deployment.
    const pages: Search[] = []
    let before = 0
    for (;;) {
      const page = await call<Search>('ots_searchTransactionsBefore', leafAddress, before, 2)
      pages.push(page)
      if (page.lastPage) break
      before = Number(page.txs.at(-1)!.blockNumber)
    }
    expect(pages.map((page) => [page.firstPage, page.lastPage])).toEqual([[true, false], [false, false], [false, true]])
    const newestFirst = pages.flatMap((page) => page.txs.map((tx) => tx.hash))
    expect(newestFirst).toEqual([...touching].reverse().concat(deployment.map((tx) => tx.hash)))
    expect(pages[0].receipts.map((r) => r.transactionHash)).toEqual(pages[0].txs.map((tx) => tx.hash))
    expect(pages[0].receipts[0].timestamp).toMatch(/^0x/)

    // After: from the start, newest first within each page.
    const after = await call<Search>('ots_searchTransactionsAfter', leafAddress, 2, 2)
    expect(after.txs.map((tx) => tx.hash)).toEqual([touching[1], touching[0]])
    expect([after.firstPage, after.lastPage]).toEqual([false, false])
    const tip = await call<Search>('ots_searchTransactionsAfter', leafAddress, Number(await call('eth_blockNumber')) - 2, 5)
    expect(tip.txs.map((tx) => tx.hash)).toEqual([touching[4]])
    expect(tip.firstPage).toBe(true)

    // Mined later: indexed at the next search, not before.
    const later = (await send(tracing.nested(leafAddress, 6))).hash
    expect((await call<Search>('ots_searchTransactionsBefore', leafAddress, 0, 1)).txs[0].hash).toBe(later)
    // An address nobody used; the other sender's own transfer.
    expect(await call('ots_searchTransactionsBefore', '0x00000000000000000000000000000000000000aa', 0, 5)).toEqual({ txs: [], receipts: [], firstPage: true, lastPage: true })
    expect((await call<Search>('ots_searchTransactionsBefore', DEV[2].address, 0, 5)).txs).toHaveLength(1)
    expect(tracingAddress).toMatch(/^0x/)
    expect(node.chain.head.number).toBeGreaterThan(7n)
  })

  test('ots_getContractCreator, ots_getTransactionBySenderAndNonce, ots_hasCode; the index follows evm_revert', async () => {
    const { tracing, call, send, leafAddress, tracingAddress } = await tracingChain()
    const leafCreation = await call<{ txs: { hash: string }[] }>('ots_searchTransactionsAfter', leafAddress, 0, 1)
    expect(await call('ots_getContractCreator', leafAddress)).toEqual({ hash: leafCreation.txs[0].hash, creator: DEV[0].address })
    expect(await call('ots_getContractCreator', DEV[0].address)).toBeNull()

    const snapshot = await call<string>('evm_snapshot')
    const creates = await send(tracing.creates(SALT, { value: 2 }))
    const [a] = tracingAbi.decodeFunctionResult('creates', (await call<{ output: string }[]>('ots_traceTransaction', creates.hash))[0].output)
    // Created inside a call: the creator is the contract that ran CREATE.
    expect(await call('ots_getContractCreator', a)).toEqual({ hash: creates.hash, creator: tracingAddress })
    await call('evm_revert', snapshot)
    expect(await call('ots_getContractCreator', a)).toBeNull()
    expect((await call<Search>('ots_searchTransactionsBefore', tracingAddress, 0, 10)).txs.map((tx) => tx.hash)).not.toContain(creates.hash)

    expect(await call('ots_getTransactionBySenderAndNonce', DEV[0].address, '0x0')).toBe(leafCreation.txs[0].hash)
    expect(await call('ots_getTransactionBySenderAndNonce', DEV[0].address, '0x63')).toBeNull()
    const head = await call<string>('eth_blockNumber')
    expect(await call('ots_hasCode', leafAddress, head)).toBe(true)
    expect(await call('ots_hasCode', leafAddress, '0x0')).toBe(false)
    expect(await call('ots_hasCode', DEV[0].address, 'latest')).toBe(false)
    expect(await call('ots_getApiLevel')).toBe(8)
    expect(await call<{ number: string }>('erigon_getHeaderByNumber', 1)).toMatchObject({ number: '0x1' })
    expect(await call('erigon_getHeaderByNumber', 99)).toBeNull()
    await expectRpcError(call('ots_searchTransactionsBefore', '0x12', 0, 5), -32602, /^invalid argument 0 \(address\)/)
    await expectRpcError(call('ots_getBlockTransactions', 1, 'first', 5), -32602, /^invalid argument 1 \(page\)/)
  })
})
