import { Transaction, TypedDataEncoder, verifyTypedData } from 'ethers'
import {
  createWalletClient,
  custom,
  hashTypedData,
  recoverMessageAddress,
  recoverTransactionAddress,
  recoverTypedDataAddress,
  type Hex,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { beforeEach, describe, expect, test } from 'vitest'
import type { Node } from '../../../src/core/node.ts'
import { parseTypedData, typedDataDigest } from '../../../src/core/wallet/typedData.ts'
import { expectRpcError } from '../../support/expectRpc.ts'
import { DEV, eip1193, GAS_PRICE, rpc, startNode } from '../../support/chain.ts'

const STRANGER = '0x00000000000000000000000000000000005afe00'

let node: Node
let call: ReturnType<typeof rpc>
beforeEach(async () => {
  node = await startNode()
  call = rpc(node)
})

/** EIP-712's own example (nested structs), plus an array and signed and fixed-size fields. */
const mail = {
  types: {
    EIP712Domain: [
      { name: 'name', type: 'string' },
      { name: 'version', type: 'string' },
      { name: 'chainId', type: 'uint256' },
      { name: 'verifyingContract', type: 'address' },
    ],
    Person: [
      { name: 'name', type: 'string' },
      { name: 'wallets', type: 'address[]' },
    ],
    Mail: [
      { name: 'from', type: 'Person' },
      { name: 'to', type: 'Person[]' },
      { name: 'contents', type: 'string' },
      { name: 'delta', type: 'int32' },
      { name: 'tag', type: 'bytes4' },
      { name: 'attachment', type: 'bytes' },
      { name: 'urgent', type: 'bool' },
    ],
  },
  primaryType: 'Mail',
  domain: { name: 'Ether Mail', version: '1', chainId: 260, verifyingContract: '0xcccccccccccccccccccccccccccccccccccccccc' },
  message: {
    from: { name: 'Cow', wallets: ['0xcd2a3d9f938e13cd947ec05abc7fe734df8dd826', '0xdeaddeaddeaddeaddeaddeaddeaddeaddeaddead'] },
    to: [{ name: 'Bob', wallets: ['0xbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb'] }],
    contents: 'Hello, Bob!',
    delta: -5,
    tag: '0x01020304',
    attachment: '0xdeadbeef',
    urgent: true,
  },
}
/** viem and ethers type typed data from literal types; this one is plain JSON (what the RPC carries). */
const viemMail = mail as unknown as Parameters<typeof hashTypedData>[0]

describe('accounts and permissions', () => {
  test('eth_accounts and eth_requestAccounts: the dev accounts, then the impersonated ones', async () => {
    const dev = (await call<string[]>('eth_accounts')).slice(0, 3)
    expect(dev).toEqual(DEV.map((d) => d.address))
    await call('anvil_impersonateAccount', STRANGER)
    const accounts = await call<string[]>('eth_requestAccounts')
    expect(accounts).toHaveLength(11)
    expect(accounts.at(-1)).toBe(STRANGER)
  })

  test('wallet_getPermissions / wallet_requestPermissions grant eth_accounts, and nothing else', async () => {
    const permission = {
      invoker: 'pagenode',
      parentCapability: 'eth_accounts',
      caveats: [{ type: 'restrictReturnedAccounts', value: await call('eth_accounts') }],
    }
    expect(await call('wallet_getPermissions')).toEqual([permission])
    expect(await call('wallet_requestPermissions', { eth_accounts: {} })).toEqual([permission])
    await expectRpcError(
      call('wallet_requestPermissions', { snap_dialog: {} }),
      -32602,
      'invalid argument 0 (permissions): unknown permission snap_dialog: this wallet grants eth_accounts only',
    )
  })

  test('wallet_switchEthereumChain: this chain, or 4902', async () => {
    expect(await call('wallet_switchEthereumChain', { chainId: '0x104' })).toBeNull()
    await expectRpcError(call('wallet_switchEthereumChain', { chainId: '0x1' }), 4902, /^Unrecognized chain ID 0x1/)
  })
})

describe('eth_sendTransaction', () => {
  test('fills nonce, gas and fees; signs with the dev key; the transaction recovers to the sender', async () => {
    const first = await call<Hex>('eth_sendTransaction', { from: DEV[0].address, to: STRANGER, value: '0x5' })
    const data = '0x12345678'
    const second = await call<Hex>('eth_sendTransaction', { from: DEV[0].address, to: STRANGER, data })
    const tx = await call<Record<string, string>>('eth_getTransactionByHash', second)
    expect(tx).toMatchObject({
      from: DEV[0].address,
      nonce: '0x1',
      type: '0x2',
      maxFeePerGas: `0x${GAS_PRICE.toString(16)}`,
      maxPriorityFeePerGas: '0x0',
      input: data,
    })
    // eth_estimateGas's answer for the same call.
    expect(tx.gas).toBe(await call('eth_estimateGas', { from: DEV[0].address, to: STRANGER, data }))
    const receipt = await call<{ status: string }>('eth_getTransactionReceipt', first)
    expect(receipt.status).toBe('0x1')
    expect(await call('eth_getBalance', STRANGER, 'latest')).toBe('0x5')
  })

  test('a gasPrice makes it legacy; explicit fields are kept', async () => {
    const hash = await call<Hex>('eth_sendTransaction', { from: DEV[1].address, to: STRANGER, gasPrice: `0x${(2n * GAS_PRICE).toString(16)}`, gas: '0x7530', nonce: '0x0' })
    expect(await call('eth_getTransactionByHash', hash)).toMatchObject({ type: '0x0', gas: '0x7530', gasPrice: `0x${(2n * GAS_PRICE).toString(16)}` })
  })

  test('a sender the node has no key for and does not impersonate: 4100', async () => {
    await expectRpcError(
      call('eth_sendTransaction', { from: STRANGER, to: DEV[0].address }),
      4100,
      `the node cannot send for ${STRANGER}: it holds keys for its dev accounts only (eth_accounts); impersonate it first (anvil_impersonateAccount)`,
    )
    // Refused before its gas is estimated: not the revert (INVALID) it would run into.
    await expectRpcError(call('eth_sendTransaction', { from: STRANGER, data: '0xfe' }), 4100, /^the node cannot send for/)
  })

  test('anvil_autoImpersonateAccount: every sender, a contract included, until turned off', async () => {
    await call('anvil_setBalance', STRANGER, '0xde0b6b3a7640000')
    // Code at the sender: EIP-3607 would refuse it; anvil and Hardhat switch that off.
    await call('anvil_setCode', STRANGER, '0x00')
    await call('anvil_autoImpersonateAccount', true)
    const hash = await call<Hex>('eth_sendTransaction', { from: STRANGER, to: DEV[0].address, value: '0x1' })
    expect(await call('eth_getTransactionReceipt', hash)).toMatchObject({ from: STRANGER, status: '0x1' })
    expect(await call('eth_getCode', STRANGER, 'latest')).toBe('0x00')
    await call('anvil_autoImpersonateAccount', false)
    await expectRpcError(call('eth_sendTransaction', { from: STRANGER, to: DEV[0].address }), 4100, /^the node cannot send for/)
  })

  test('refusals: a wrong chain id, fee fields of another type, type 0x71', async () => {
    await expectRpcError(
      call('eth_sendTransaction', { from: DEV[0].address, to: STRANGER, chainId: '0x1' }),
      -32602,
      "invalid argument 0 (transaction): chainId 0x1 is not this chain's (0x104)",
    )
    await expectRpcError(
      call('eth_sendTransaction', { from: DEV[0].address, to: STRANGER, type: '0x0', maxFeePerGas: '0x1' }),
      -32602,
      'invalid argument 0 (transaction): a type 0 transaction takes gasPrice, not maxFeePerGas/maxPriorityFeePerGas',
    )
    await expectRpcError(call('eth_sendTransaction', { from: DEV[0].address, type: '0x71' }), -32602, /^invalid argument 0 \(transaction\): type: type 0x71 transactions are not signed by the node/)
    await expectRpcError(call('eth_sendTransaction', { to: STRANGER }), -32602, 'invalid argument 0 (transaction): from: the sender is required')
  })

  test("eth_signTransaction: the raw transaction, signed as a local account signs it, not sent", async () => {
    const request = { from: DEV[0].address, to: STRANGER, value: '0x9', gas: '0x5208', nonce: '0x3', maxFeePerGas: '0x2b27f00', maxPriorityFeePerGas: '0x0' }
    const raw = await call<Hex>('eth_signTransaction', request)
    expect(await recoverTransactionAddress({ serializedTransaction: raw as `0x02${string}` })).toBe(privateKeyToAccount(DEV[0].key).address)
    const local = await privateKeyToAccount(DEV[0].key).signTransaction({
      chainId: 260, type: 'eip1559', to: STRANGER, value: 9n, gas: 21_000n, nonce: 3, maxFeePerGas: 0x2b27f00n, maxPriorityFeePerGas: 0n,
    })
    expect(raw).toBe(local)
    expect(await call('eth_blockNumber')).toBe('0x0')
    await expectRpcError(call('eth_signTransaction', { from: STRANGER, to: DEV[0].address }), 4100, /^the node holds no key for/)
    expect(Transaction.from(raw).nonce).toBe(3)
  })
})

describe('message and typed-data signing', () => {
  test('personal_sign and eth_sign: EIP-191 signatures by the dev key, deterministic', async () => {
    const account = privateKeyToAccount(DEV[0].key)
    const personal = await call<Hex>('personal_sign', '0x68656c6c6f', DEV[0].address)
    expect(personal).toBe(await account.signMessage({ message: 'hello' }))
    expect(await call('eth_sign', DEV[0].address, '0x68656c6c6f')).toBe(personal)
    // Text that is not hex is signed as UTF-8, as MetaMask does.
    expect(await call('personal_sign', 'hello', DEV[0].address)).toBe(personal)
    expect(await recoverMessageAddress({ message: 'hello', signature: personal })).toBe(account.address)
    await expectRpcError(call('personal_sign', '0x00', STRANGER), 4100, `the node holds no key for ${STRANGER}: it signs for its dev accounts only (eth_accounts)`)
  })

  test('eth_signTypedData_v4: the digest viem and ethers compute, signed by the dev key', async () => {
    expect(typedDataDigest(parseTypedData(mail))).toEqual(Uint8Array.from(Buffer.from(hashTypedData(viemMail).slice(2), 'hex')))
    const { EIP712Domain: _domain, ...types } = mail.types
    expect(TypedDataEncoder.hash(mail.domain, types, mail.message)).toBe(hashTypedData(viemMail))

    const signature = await call<Hex>('eth_signTypedData_v4', DEV[0].address, JSON.stringify(mail))
    expect(signature).toBe(await privateKeyToAccount(DEV[0].key).signTypedData(viemMail))
    expect(verifyTypedData(mail.domain, types, mail.message, signature).toLowerCase()).toBe(DEV[0].address)
    // The object form, and without EIP712Domain (inferred from the domain's fields).
    expect(await call('eth_signTypedData_v4', DEV[0].address, { ...mail, types })).toBe(signature)
  })

  test("viem's wallet client with a JSON-RPC account signs through the node", async () => {
    const wallet = createWalletClient({ account: DEV[1].address as Hex, transport: custom(eip1193(node)) })
    const signature = await wallet.signTypedData(viemMail)
    expect(await recoverTypedDataAddress({ ...viemMail, signature })).toBe(privateKeyToAccount(DEV[1].key).address)
    expect(await wallet.signMessage({ message: 'gm' })).toBe(await privateKeyToAccount(DEV[1].key).signMessage({ message: 'gm' }))
    expect(await wallet.getAddresses()).toHaveLength(10)
  })

  test('malformed typed data is named by its path', async () => {
    const bad = (patch: Record<string, unknown>) => ({ ...mail, message: { ...mail.message, ...patch } })
    const sign = (data: unknown) => call('eth_signTypedData_v4', DEV[0].address, data)
    await expectRpcError(sign(bad({ delta: 2 ** 31 })), -32602, 'invalid argument 1 (typedData): message.delta: 2147483648 is out of range for int32')
    await expectRpcError(sign(bad({ tag: '0x01' })), -32602, 'invalid argument 1 (typedData): message.tag: expected 4 bytes (bytes4), got 1')
    await expectRpcError(
      sign(bad({ to: [{ name: 'Bob', wallets: ['0x12'] }] })),
      -32602,
      'invalid argument 1 (typedData): message.to[0].wallets[0]: expected an address, got "0x12"',
    )
    await expectRpcError(sign(bad({ contents: undefined })), -32602, 'invalid argument 1 (typedData): message.contents: missing a value of type string')
    await expectRpcError(sign('{not json'), -32602, /^invalid argument 1 \(typedData\): expected typed data as an object or its JSON text; the JSON does not parse/)
    await expectRpcError(sign({ ...mail, primaryType: 'Letter' }), -32602, 'invalid argument 1 (typedData): primaryType: Letter is not among the types')
  })
})

describe('eth_sendTransaction sent many at once from one account', () => {
  test('each gets the next nonce (none is "already known"), under automine and with no gas given', async () => {
    const node = await startNode()
    const sends = Array.from({ length: 20 }, () => rpc(node)('eth_sendTransaction', { from: DEV[0].address, to: DEV[1].address, value: '0x1' }))
    const hashes = (await Promise.all(sends)) as string[]
    expect(new Set(hashes).size).toBe(20)
    const nonces = await Promise.all(hashes.map(async (hash) => Number(((await rpc(node)('eth_getTransactionByHash', hash)) as { nonce: string }).nonce)))
    expect(nonces.sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => i))
  })
})
