import { ContractFactory, getCreateAddress, type Contract } from 'ethers'
import { describe, expect, test } from 'vitest'
import { artifacts, DEV, devWallet } from '../../support/chain.ts'
import { hex, tracingAbi, tracingChain, word, type TracingChain } from '../../support/tracing.ts'

interface Account {
  balance?: string
  code?: string
  nonce?: number
  storage?: Record<string, string>
}
type Prestate = Record<string, Account>

const COINBASE = `0x${'00'.repeat(20)}`

let chain: TracingChain | undefined

/** An account as the ordinary eth_ methods report it at `block`, in the prestate's shape. */
async function accountAt(address: string, block: string, slots: string[] = []): Promise<Account> {
  const { call } = chain!
  const account: Account = { balance: await call<string>('eth_getBalance', address, block) }
  const code = await call<string>('eth_getCode', address, block)
  if (code !== '0x') account.code = code
  const nonce = Number(await call<string>('eth_getTransactionCount', address, block))
  if (nonce > 0) account.nonce = nonce
  if (slots.length > 0) {
    account.storage = {}
    for (const slot of slots) account.storage[slot] = await call<string>('eth_getStorageAt', address, slot, block)
  }
  return account
}

const parentOf = (block: string) => hex(BigInt(block) - 1n)

describe('prestateTracer', () => {
  test('every account the transaction touched, as it was before: sender, callee, beneficiary, coinbase, storage slots', async () => {
    chain = await tracingChain()
    const { tracing, leafAddress, tracingAddress, call, send } = chain
    await send(tracing.nested(leafAddress, 3))
    const mined = await send(tracing.nested(leafAddress, 7, { value: 5 }))
    const prestate = await call<Prestate>('debug_traceTransaction', mined.hash, { tracer: 'prestateTracer' })
    const parent = parentOf(mined.receipt.blockNumber)
    expect(prestate).toEqual({
      [COINBASE]: await accountAt(COINBASE, parent),
      [leafAddress]: await accountAt(leafAddress, parent, [word(0)]),
      [tracingAddress]: await accountAt(tracingAddress, parent, [word(0)]),
      [DEV[0].address]: await accountAt(DEV[0].address, parent),
    })
    expect(prestate[leafAddress].storage).toEqual({ [word(0)]: word(3) })
    expect(Object.keys(prestate)).toEqual(Object.keys(prestate).sort())
  })

  test('diffMode: what changed, before and after; untouched fields and unchanged accounts left out', async () => {
    chain = await tracingChain()
    const { tracing, tracingAddress, call, send } = chain
    const mined = await send(tracing.pay(DEV[2].address, { value: 1000 }))
    const diff = await call<{ pre: Prestate; post: Prestate }>('debug_traceTransaction', mined.hash, { tracer: 'prestateTracer', tracerConfig: { diffMode: true } })
    const block = mined.receipt.blockNumber
    const parent = parentOf(block)
    expect(diff).toEqual({
      post: {
        [DEV[0].address]: { balance: await call('eth_getBalance', DEV[0].address, block), nonce: Number(await call('eth_getTransactionCount', DEV[0].address, block)) },
        [DEV[2].address]: { balance: await call('eth_getBalance', DEV[2].address, block) },
      },
      pre: {
        [DEV[0].address]: await accountAt(DEV[0].address, parent),
        [DEV[2].address]: await accountAt(DEV[2].address, parent),
      },
    })
    // Tracing passed the value through, its balance is unchanged: it is in neither.
    expect(diff.pre).not.toHaveProperty(tracingAddress)
    expect(Object.keys(diff)).toEqual(['post', 'pre'])
  })

  test('diffMode: changed slots only, zero values left out; a created contract is only in post', async () => {
    chain = await tracingChain()
    const { tracing, leafAddress, tracingAddress, call, send } = chain
    const nonce = BigInt(await call<string>('eth_getTransactionCount', tracingAddress, 'latest'))
    const mined = await send(tracing.creates(`0x${'01'.repeat(32)}`, { value: 6 }))
    const diff = await call<{ pre: Prestate; post: Prestate }>('debug_traceTransaction', mined.hash, { tracer: 'prestateTracer', tracerConfig: { diffMode: true } })
    const created = getCreateAddress({ from: tracingAddress, nonce }).toLowerCase()
    expect(diff.pre).not.toHaveProperty(created)
    expect(diff.post[created]).toEqual({ balance: hex(3), code: await call('eth_getCode', created, 'latest'), nonce: 1 })
    expect(diff.post[tracingAddress]).toEqual({ nonce: Number(nonce) + 2 })

    const stored = await send(tracing.nested(leafAddress, 7))
    const slots = await call<{ pre: Prestate; post: Prestate }>('debug_traceTransaction', stored.hash, { tracer: 'prestateTracer', tracerConfig: { diffMode: true } })
    // Both slots went from 0 to a value: zero "before" values are left out of pre.
    expect(slots.post[leafAddress]).toEqual({ storage: { [word(0)]: word(7) } })
    expect(slots.post[tracingAddress]).toEqual({ storage: { [word(0)]: word(8) } })
    expect(slots.pre[leafAddress]).toEqual(await accountAt(leafAddress, parentOf(stored.receipt.blockNumber)))
  })

  test('a contract created and destroyed in the transaction shows nowhere; an older one that self-destructs keeps its code and loses its balance', async () => {
    chain = await tracingChain()
    const { tracing, tracingAddress, call, send } = chain
    const nonce = BigInt(await call<string>('eth_getTransactionCount', tracingAddress, 'latest'))
    const mined = await send(tracing.ephemeral(DEV[2].address, { value: 50 }))
    const ephemeral = getCreateAddress({ from: tracingAddress, nonce }).toLowerCase()
    const prestate = await call<Prestate>('debug_traceTransaction', mined.hash, { tracer: 'prestateTracer' })
    expect(prestate).not.toHaveProperty(ephemeral)
    const diff = await call<{ pre: Prestate; post: Prestate }>('debug_traceTransaction', mined.hash, { tracer: 'prestateTracer', tracerConfig: { diffMode: true } })
    expect(diff.pre).not.toHaveProperty(ephemeral)
    expect(diff.post).not.toHaveProperty(ephemeral)
    expect(diff.post[DEV[2].address].balance).toBe(await call('eth_getBalance', DEV[2].address, mined.receipt.blockNumber))

    // A pre-existing contract's SELFDESTRUCT only hands over its balance (EIP-6780): it stays.
    const funded = await new ContractFactory(artifacts.Leaf.abi, artifacts.Leaf.bytecode, chain.wallet).deploy({ value: 77 })
    await funded.waitForDeployment()
    const fundedAddress = (await funded.getAddress()).toLowerCase()
    const destroyed = await send(tracing.destroy(fundedAddress, DEV[1].address))
    const after = await call<{ pre: Prestate; post: Prestate }>('debug_traceTransaction', destroyed.hash, { tracer: 'prestateTracer', tracerConfig: { diffMode: true } })
    expect(after.pre[fundedAddress]).toEqual(await accountAt(fundedAddress, parentOf(destroyed.receipt.blockNumber)))
    expect(after.pre[fundedAddress].balance).toBe(hex(77))
    expect(after.post[fundedAddress]).toEqual({ balance: '0x0' })
    expect(await call('eth_getCode', fundedAddress, 'latest')).toBe(artifacts.Leaf.deployedBytecode)
  })

  test('disableCode and disableStorage leave those out', async () => {
    chain = await tracingChain()
    const { tracing, leafAddress, tracingAddress, call, send } = chain
    const mined = await send(tracing.nested(leafAddress, 7))
    const prestate = await call<Prestate>('debug_traceTransaction', mined.hash, { tracer: 'prestateTracer', tracerConfig: { disableCode: true, disableStorage: true } })
    expect(prestate[tracingAddress]).toEqual({ balance: '0x0', nonce: 1 })
    expect(prestate[leafAddress]).toEqual({ balance: '0x0', nonce: 1 })
  })

  test('debug_traceCall: an unpriced call changes no balance but the value it moves', async () => {
    chain = await tracingChain()
    const { tracingAddress, call } = chain
    const request = { from: DEV[1].address, to: tracingAddress, value: hex(1000), data: tracingAbi.encodeFunctionData('pay', [DEV[2].address]) }
    const diff = await call<{ pre: Prestate; post: Prestate }>('debug_traceCall', request, 'latest', { tracer: 'prestateTracer', tracerConfig: { diffMode: true } })
    const before = BigInt(await call<string>('eth_getBalance', DEV[1].address, 'latest'))
    expect(diff.pre[DEV[1].address].balance).toBe(hex(before))
    expect(diff.post[DEV[1].address].balance).toBe(hex(before - 1000n))
    expect(diff.post[DEV[2].address].balance).toBe(hex(BigInt(await call<string>('eth_getBalance', DEV[2].address, 'latest')) + 1000n))
    // A priced call pays for its gas like a transaction.
    const priced = await call<{ pre: Prestate; post: Prestate }>('debug_traceCall', { ...request, gasPrice: hex(45_250_000n) }, 'latest', {
      tracer: 'prestateTracer',
      tracerConfig: { diffMode: true },
    })
    const used = BigInt((await call<{ gasUsed: string }>('debug_traceCall', { ...request, gasPrice: hex(45_250_000n) }, 'latest')).gasUsed)
    expect(priced.post[DEV[1].address].balance).toBe(hex(before - 1000n - used * 45_250_000n))
  })

  test('in a block, each transaction’s prestate follows the ones before it', async () => {
    chain = await tracingChain({ mining: { mode: 'manual' } })
    const { node, tracing, leafAddress, call } = chain
    const first = await (tracing.connect(devWallet(node, 1)) as Contract).nested(leafAddress, 11, { nonce: 0, gasLimit: 300_000 })
    const second = await (tracing.connect(devWallet(node, 2)) as Contract).nested(leafAddress, 12, { nonce: 0, gasLimit: 300_000 })
    const block = await node.miner.mine()
    expect(block.transactions.map((tx) => tx.hash)).toEqual([first.hash, second.hash])
    const traces = await call<{ txHash: string; result: Prestate }[]>('debug_traceBlockByHash', block.hash, { tracer: 'prestateTracer' })
    expect(traces.map((entry) => entry.txHash)).toEqual([first.hash, second.hash])
    expect(traces[0].result[leafAddress].storage).toEqual({ [word(0)]: word(0) })
    expect(traces[1].result[leafAddress].storage).toEqual({ [word(0)]: word(11) })
    // The block's last trace still holds the state after it for the next one.
    expect(await call('debug_traceTransaction', second.hash, { tracer: 'prestateTracer' })).toEqual(traces[1].result)
  })
})
