import { createPublicClient, createWalletClient, custom, type Hex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { zksyncInMemoryNode } from 'viem/chains'
import { describe, expect, test } from 'vitest'
import { DEV, eip1193 } from '../../support/chain.ts'
import { expectRpcError } from '../../support/expectRpc.ts'
import { leafAbi, tracingAbi, tracingChain } from '../../support/tracing.ts'

const ZERO_SLOT = `0x${'0'.repeat(64)}`

async function fixture() {
  const chain = await tracingChain()
  const transport = custom(eip1193(chain.node))
  const publicClient = createPublicClient({ chain: zksyncInMemoryNode, transport })
  const wallet = createWalletClient({ account: privateKeyToAccount(DEV[0].key as Hex), chain: zksyncInMemoryNode, transport })
  return { ...chain, publicClient, wallet }
}

describe('eth_createAccessList', () => {
  test('viem createAccessList: the callee and its slot, not the sender or recipient alone; gasUsed is what the transaction then uses', async () => {
    const { publicClient, wallet, leafAddress, tracingAddress, call } = await fixture()
    const data = tracingAbi.encodeFunctionData('nested', [leafAddress, 7]) as Hex
    const { accessList, gasUsed } = await publicClient.createAccessList({ account: DEV[0].address as Hex, to: tracingAddress as Hex, data })
    // The recipient appears with the slot it reads (its address alone is warm anyway).
    expect(accessList).toEqual([
      { address: leafAddress, storageKeys: [ZERO_SLOT] },
      { address: tracingAddress, storageKeys: [ZERO_SLOT] },
    ])

    // Sent with that list, the transaction uses exactly the gas the node reported.
    const hash = await wallet.sendTransaction({ to: tracingAddress as Hex, data, accessList, gas: 500_000n })
    const receipt = await call<{ gasUsed: string; status: string }>('eth_getTransactionReceipt', hash)
    expect(receipt.status).toBe('0x1')
    expect(BigInt(receipt.gasUsed)).toBe(gasUsed)
  })

  test("a plain transfer's list is empty; a given list is kept, as geth keeps it, with what the call needs", async () => {
    const { publicClient, leafAddress, call } = await fixture()
    expect(await publicClient.createAccessList({ account: DEV[0].address as Hex, to: DEV[1].address as Hex, value: 10n })).toEqual({
      accessList: [],
      gasUsed: 21_000n,
    })
    const peek = leafAbi.encodeFunctionData('peek')
    // The recipient's own slots are listed (only the address is warm by itself).
    const { accessList } = await publicClient.createAccessList({ to: leafAddress as Hex, data: peek as Hex })
    expect(accessList).toEqual([{ address: leafAddress, storageKeys: [ZERO_SLOT] }])
    const other = '0x00000000000000000000000000000000000000aa'
    const result = await call<{ accessList: unknown[] }>('eth_createAccessList', {
      to: leafAddress,
      data: peek,
      accessList: [{ address: other, storageKeys: [ZERO_SLOT] }],
    })
    expect(result.accessList).toEqual([
      { address: other, storageKeys: [ZERO_SLOT] },
      { address: leafAddress, storageKeys: [ZERO_SLOT] },
    ])
  })

  test('a revert is reported in `error` with the gas it used, not refused (viem then throws)', async () => {
    const { tracingAddress, call } = await fixture()
    const result = await call<{ accessList: unknown[]; gasUsed: string; error?: string }>('eth_createAccessList', {
      from: DEV[0].address,
      to: tracingAddress,
      data: tracingAbi.encodeFunctionData('fail', ['no']),
    })
    expect(Object.keys(result)).toEqual(['accessList', 'error', 'gasUsed'])
    expect(result.error).toBe('execution reverted')
    expect(BigInt(result.gasUsed)).toBeGreaterThan(21_000n)
  })

  test('runs in the named block, with state overrides; bad input is -32602', async () => {
    const { leafAddress, call } = await fixture()
    const storeOne = leafAbi.encodeFunctionData('store', [1])
    // Before the Leaf existed (block 0) nothing at its address reads storage.
    expect(await call('eth_createAccessList', { to: leafAddress, data: storeOne }, '0x0')).toMatchObject({ accessList: [] })
    // With other code there, that code's accesses count.
    const sloadSlot5 = '0x60055460005260206000f3' // PUSH1 5 SLOAD PUSH1 0 MSTORE PUSH1 32 PUSH1 0 RETURN
    const proxy = '0x00000000000000000000000000000000000000bb'
    const overridden = await call<{ accessList: unknown[] }>(
      'eth_createAccessList',
      { to: leafAddress, data: '0x' },
      'latest',
      { [leafAddress]: { code: `0x600073${proxy.slice(2)}3b50${sloadSlot5.slice(2)}` } },
    )
    expect(overridden.accessList).toEqual([
      { address: proxy, storageKeys: [] },
      { address: leafAddress, storageKeys: [`0x${'5'.padStart(64, '0')}`] },
    ])
    await expectRpcError(call('eth_createAccessList', { to: '0x12' }), -32602, /^invalid argument 0 \(call\): to: /)
    await expectRpcError(call('eth_createAccessList', { to: leafAddress }, 'newest'), -32602, /^invalid argument 1 \(block\)/)
  })
})
