/**
 * The newer standard methods, tracers and Otterscan's ots_ methods against anvil (the
 * @foundry-rs/anvil devDependency): the same contracts and transactions on both, the same
 * requests, and the answers compared where they should match — shapes everywhere, values where
 * the two chains agree (gas, traces, access lists; not hashes, which depend on fees and chain id).
 */
import { Contract, ContractFactory, JsonRpcProvider, NonceManager, Wallet, type InterfaceAbi } from 'ethers'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import type { Node } from '../../../../src/core/node.ts'
import { startAnvil } from '../../../support/anvil.ts'
import { artifacts, DEV, devWallet, rpc, startNode } from '../../../support/chain.ts'
import { leafAbi, tracingAbi } from '../../../support/tracing.ts'

type Call = <T = unknown>(method: string, ...params: unknown[]) => Promise<T>

interface Side {
  call: Call
  leaf: string
  tracing: string
  /** Hashes of the scenario's transactions, by name. */
  tx: Record<string, string>
}

const SALT = `0x${'5a'.repeat(32)}`
const OTHER = '0xc100000000000000000000000000000000000000'
let node: Node
let pagenode: Side
let anvil: Side

/** The same deployments and transactions, one block each, in the same order: the same addresses on both chains. */
async function scenario(wallet: Wallet | NonceManager, call: Call): Promise<Side> {
  const deploy = async (name: 'Leaf' | 'Tracing') => {
    const { abi, bytecode } = artifacts[name] as { abi: InterfaceAbi; bytecode: string }
    const contract = await new ContractFactory(abi, bytecode, wallet).deploy()
    await contract.waitForDeployment()
    return (await contract.getAddress()).toLowerCase()
  }
  const leaf = await deploy('Leaf')
  const tracing = await deploy('Tracing')
  const contract = new Contract(tracing, tracingAbi, wallet)
  const mined = async (sent: Promise<{ hash: string; wait(): Promise<unknown> }>) => {
    const response = await sent
    await response.wait().catch(() => {})
    return response.hash
  }
  const tx = {
    nested: await mined(contract.getFunction('nested')(leaf, 7, { value: 5 })),
    creates: await mined(contract.getFunction('creates')(SALT, { value: 10 })),
    failed: await mined(wallet.sendTransaction({ to: tracing, data: tracingAbi.encodeFunctionData('fail', ['boom']), gasLimit: 200_000 })),
    transfer: await mined(wallet.sendTransaction({ to: OTHER, value: 3 })),
  }
  return { call, leaf, tracing, tx }
}

beforeAll(async () => {
  node = await startNode({}, { shared: true })
  pagenode = await scenario(devWallet(node), rpc(node) as Call)
  const reference = await startAnvil()
  const provider = new JsonRpcProvider(reference.url, undefined, { staticNetwork: true, cacheTimeout: -1, pollingInterval: 20 })
  anvil = await scenario(new NonceManager(new Wallet(DEV[0].key, provider)), reference.call as Call)
}, 60_000)

afterAll(() => node?.close())

/** Both answers to the same request, pagenode's first. */
const both = <T>(request: (side: Side) => Promise<T>) => Promise.all([request(pagenode), request(anvil)])

describe('against anvil', () => {
  test('the scenario put the contracts at the same addresses', () => {
    expect([pagenode.leaf, pagenode.tracing]).toEqual([anvil.leaf, anvil.tracing])
  })

  test('ots_traceTransaction, ots_getInternalOperations and ots_getTransactionError answer the same', async () => {
    for (const name of ['nested', 'creates', 'failed', 'transfer']) {
      const [ours, theirs] = await both((side) => side.call('ots_traceTransaction', side.tx[name]))
      expect(ours, `ots_traceTransaction ${name}`).toEqual(theirs)
      const [ourOps, theirOps] = await both((side) => side.call('ots_getInternalOperations', side.tx[name]))
      expect(ourOps, `ots_getInternalOperations ${name}`).toEqual(theirOps)
      const [ourError, theirError] = await both((side) => side.call('ots_getTransactionError', side.tx[name]))
      expect(ourError, `ots_getTransactionError ${name}`).toBe(theirError)
    }
  })

  test('ots_ lookups: API level, code, creators, sender and nonce', async () => {
    expect(await both((side) => side.call('ots_getApiLevel'))).toEqual([8, 8])
    for (const address of [pagenode.leaf, DEV[0].address, OTHER]) {
      const [ours, theirs] = await both((side) => side.call('ots_hasCode', address, 'latest'))
      expect(ours).toBe(theirs)
    }
    const [ourCreator, theirCreator] = await both((side) => side.call<{ hash: string; creator: string } | null>('ots_getContractCreator', side.leaf))
    expect(ourCreator?.creator).toBe(theirCreator?.creator)
    for (const nonce of ['0x0', '0x2', '0x63']) {
      const [ours, theirs] = await both(async (side) => {
        const hash = await side.call<string | null>('ots_getTransactionBySenderAndNonce', DEV[0].address, nonce)
        // Each chain's own hash: compare which transaction it is by its nonce.
        return hash && (await side.call<{ nonce: string }>('eth_getTransactionByHash', hash)).nonce
      })
      expect(ours).toBe(theirs)
    }
  })

  test('ots_searchTransactionsBefore/After page the same transactions the same way', async () => {
    const page = async (side: Side, method: string, address: string, block: number, size: number) => {
      const result = await side.call<{ txs: { nonce: string; from: string; blockNumber: string }[]; receipts: { timestamp: string }[]; firstPage: boolean; lastPage: boolean }>(method, address, block, size)
      expect(result.receipts.every((receipt) => /^0x[0-9a-f]+$/.test(receipt.timestamp))).toBe(true)
      return { txs: result.txs.map((tx) => [tx.from, tx.nonce, tx.blockNumber]), firstPage: result.firstPage, lastPage: result.lastPage }
    }
    // The transactions and their order match. The page flags are compared where anvil's loop
    // reaches the end of the chain: where it stops early (the page is full) it reports a page
    // in that direction even when no transaction is left there; pagenode reports what is left.
    for (const address of [pagenode.leaf, pagenode.tracing, OTHER]) {
      let [ours, theirs] = await both((side) => page(side, 'ots_searchTransactionsBefore', address, 0, 2))
      expect(ours.txs, `before ${address}`).toEqual(theirs.txs)
      expect(ours.firstPage).toBe(theirs.firstPage)
      const [ourAfter, theirAfter] = await both((side) => page(side, 'ots_searchTransactionsAfter', address, 0, 2))
      expect(ourAfter.txs, `after ${address}`).toEqual(theirAfter.txs)
      expect(ourAfter.lastPage).toBe(theirAfter.lastPage)
      if (ours.txs.length > 0) {
        const older = Number(ours.txs.at(-1)![2])
        ;[ours, theirs] = await both((side) => page(side, 'ots_searchTransactionsBefore', address, older, 2))
        expect(ours.txs, `before ${address} at ${older}`).toEqual(theirs.txs)
      }
    }
    // Where neither stops early, all flags agree.
    const wide = await both((side) => page(side, 'ots_searchTransactionsAfter', pagenode.leaf, 0, 10))
    expect(wide[0]).toEqual(wide[1])
  })

  test('ots_getBlockDetails and ots_getBlockTransactions: anvil\'s keys, the same counts and issuance', async () => {
    const [ours, theirs] = await both((side) => side.call<{ block: Record<string, unknown>; issuance: unknown; totalFees: string }>('ots_getBlockDetails', 3))
    expect(Object.keys(ours)).toEqual(Object.keys(theirs))
    expect(Object.keys(ours.block)).toEqual(expect.arrayContaining(Object.keys(theirs.block)))
    expect([ours.block.transactionCount, ours.issuance]).toEqual([theirs.block.transactionCount, theirs.issuance])
    const [ourPage, theirPage] = await both((side) => side.call<{ fullblock: Record<string, unknown>; receipts: Record<string, unknown>[] }>('ots_getBlockTransactions', 3, 0, 5))
    expect(Object.keys(ourPage)).toEqual(Object.keys(theirPage))
    expect(Object.keys(ourPage.fullblock)).toEqual(expect.arrayContaining(Object.keys(theirPage.fullblock)))
    expect(Object.keys(ourPage.receipts[0])).toEqual(expect.arrayContaining(Object.keys(theirPage.receipts[0]).filter((key) => key !== 'blobGasPrice')))
  })

  test('4byteTracer and noopTracer answer the same; a muxTracer part is what that tracer alone answers on anvil', async () => {
    for (const name of ['nested', 'creates', 'transfer']) {
      const [ours, theirs] = await both((side) => side.call('debug_traceTransaction', side.tx[name], { tracer: '4byteTracer' }))
      expect(ours, name).toEqual(theirs)
      const [ourNoop, theirNoop] = await both((side) => side.call('debug_traceTransaction', side.tx[name], { tracer: 'noopTracer' }))
      expect(ourNoop).toEqual(theirNoop)
    }
    // anvil 1.7 answers {} to every muxTracer config, so each part is compared with its tracer alone.
    const config = { tracer: 'muxTracer', tracerConfig: { '4byteTracer': {}, noopTracer: {} } }
    const mux = await pagenode.call<Record<string, unknown>>('debug_traceTransaction', pagenode.tx.nested, config)
    expect(mux).toEqual({
      '4byteTracer': await anvil.call('debug_traceTransaction', anvil.tx.nested, { tracer: '4byteTracer' }),
      noopTracer: await anvil.call('debug_traceTransaction', anvil.tx.nested, { tracer: 'noopTracer' }),
    })
  })

  test('eth_createAccessList: the same list (in any order: geth\'s and anvil\'s come from a map) and gas', async () => {
    type Result = { accessList: { address: string; storageKeys: string[] }[]; gasUsed: string }
    const sorted = ({ accessList, gasUsed }: Result) => ({
      gasUsed,
      accessList: accessList.map(({ address, storageKeys }) => ({ address, storageKeys: [...storageKeys].sort() })).sort((a, b) => (a.address < b.address ? -1 : 1)),
    })
    const requests = [
      { from: DEV[0].address, to: pagenode.tracing, data: tracingAbi.encodeFunctionData('nested', [pagenode.leaf, 3]) },
      { from: DEV[0].address, to: pagenode.leaf, data: leafAbi.encodeFunctionData('peek') },
      { from: DEV[0].address, to: OTHER, value: '0x1' },
    ]
    for (const request of requests) {
      const [ours, theirs] = await both((side) => side.call<Result>('eth_createAccessList', request, 'latest'))
      expect(sorted(ours)).toEqual(sorted(theirs))
    }
  })

  test('eth_getTransactionBySenderAndNonce: the same transaction', async () => {
    const [ours, theirs] = await both((side) => side.call<Record<string, unknown>>('eth_getTransactionBySenderAndNonce', DEV[0].address, '0x2'))
    expect(ours.input).toBe(theirs.input)
    expect(ours.hash).toBe(pagenode.tx.nested)
    expect(theirs.hash).toBe(anvil.tx.nested)
  })

  test('eth_simulateV1: the same call results, logs and transfers', async () => {
    const payload = {
      blockStateCalls: [
        {
          stateOverrides: { '0xc000000000000000000000000000000000000000': { balance: '0x7d0' } },
          calls: [
            { from: '0xc000000000000000000000000000000000000000', to: OTHER, value: '0x3e8' },
            { from: DEV[0].address, to: pagenode.tracing, value: '0x5', data: tracingAbi.encodeFunctionData('nested', [pagenode.leaf, 9]) },
            { from: DEV[0].address, to: pagenode.leaf, data: leafAbi.encodeFunctionData('fail', ['nope']) },
          ],
        },
      ],
      traceTransfers: true,
    }
    type Result = { calls: { returnData: string; gasUsed: string; status: string; logs: { address: string; topics: string[]; data: string; logIndex: string }[]; error?: { code: number } }[] }[]
    const [ours, theirs] = await both((side) => side.call<Result>('eth_simulateV1', payload, 'latest'))
    const view = (result: Result) =>
      result[0].calls.map(({ returnData, gasUsed, status, logs }) => ({
        returnData,
        gasUsed,
        status,
        logs: logs.map(({ address, topics, data, logIndex }) => ({ address, topics, data, logIndex })),
      }))
    expect(view(ours)).toEqual(view(theirs))
    // A revert's error: the spec's code 3 (anvil 1.7 answers -3200).
    expect(ours[0].calls[2].error?.code).toBe(3)
  })
})
