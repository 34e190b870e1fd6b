import { MerkleStateManager, verifyMerkleStateProof, type Proof } from '@ethereumjs/statemanager'
import { AbiCoder, Interface, keccak256, parseEther, toBeHex, Wallet, zeroPadValue, type InterfaceAbi } from 'ethers'
import { describe, expect, test } from 'vitest'
import { artifacts, DEV, GAS_PRICE, rpc, startNode } from '../../../../support/chain.ts'
import { expectRpcError } from '../../../../support/expectRpc.ts'
import { signTx } from '../../../../support/rawTx.ts'

async function fresh(config: Parameters<typeof startNode>[0] = {}) {
  return rpc(await startNode(config))
}

type Call = ReturnType<typeof rpc>
interface Block {
  hash: string
  stateRoot: string
}
interface Receipt {
  gasUsed: string
  effectiveGasPrice: string
  contractAddress: string | null
}

const TEN_THOUSAND_ETH = parseEther('10000')
const EMPTY_TRIE_ROOT = '0x56e81f171bcc55a6ff8345e692c0f86e5b48e01b996cadc001622fb5e363b421'
const hex = (n: bigint) => `0x${n.toString(16)}`
const word = (n: bigint | number) => zeroPadValue(toBeHex(n), 32)
const probe = new Interface(artifacts.Probe.abi as InterfaceAbi)

/** Block 1 sends 1 ETH from DEV[0] to a fresh address; returns that address and the receipt. */
async function transferOneEth(call: Call) {
  const to = Wallet.createRandom().address.toLowerCase()
  const hash = await call<string>('eth_sendRawTransaction', await signTx(DEV[0].key, { to, value: parseEther('1') }))
  return { to, receipt: await call<Receipt>('eth_getTransactionReceipt', hash) }
}

/** Block 1 deploys Probe, block 2 calls set(42): slot 0 (`value`) goes from 0 to 42. */
async function probeWithValue(call: Call) {
  const deployHash = await call<string>(
    'eth_sendRawTransaction',
    await signTx(DEV[0].key, { to: null, value: 0n, data: artifacts.Probe.bytecode, gasLimit: 1_000_000n }),
  )
  const { contractAddress } = await call<Receipt>('eth_getTransactionReceipt', deployHash)
  await call(
    'eth_sendRawTransaction',
    await signTx(DEV[0].key, { nonce: 1, to: contractAddress, value: 0n, data: probe.encodeFunctionData('set', [42]), gasLimit: 100_000n }),
  )
  return contractAddress!
}

describe('eth_getBalance', () => {
  test('reads the balance at the head and before the transfer', async () => {
    const call = await fresh()
    const { to, receipt } = await transferOneEth(call)
    expect(await call('eth_getBalance', to, 'latest')).toBe(hex(parseEther('1')))
    expect(await call('eth_getBalance', to)).toBe(hex(parseEther('1')))
    expect(await call('eth_getBalance', to, '0x1')).toBe(hex(parseEther('1')))
    expect(await call('eth_getBalance', to, '0x0')).toBe('0x0')

    const fee = BigInt(receipt.gasUsed) * BigInt(receipt.effectiveGasPrice)
    expect(fee).toBe(21_000n * GAS_PRICE)
    expect(await call('eth_getBalance', DEV[0].address, '0x0')).toBe(hex(TEN_THOUSAND_ETH))
    expect(await call('eth_getBalance', DEV[0].address, '0x1')).toBe(hex(TEN_THOUSAND_ETH - parseEther('1') - fee))
  })

  test('every block tag and EIP-1898 form names the right block', async () => {
    const call = await fresh()
    const { to } = await transferOneEth(call)
    const genesis = await call<Block>('eth_getBlockByNumber', '0x0', false)
    const head = await call<Block>('eth_getBlockByNumber', '0x1', false)
    const after = hex(parseEther('1'))
    const cases: [unknown, string][] = [
      ['earliest', '0x0'],
      ['latest', after],
      // One L1 batch per block: the head's batch is sealed, so safe and finalized are the head too.
      ['safe', after],
      ['finalized', after],
      ['committed', after],
      // Pending state is the head's state: no pending block is built.
      ['pending', after],
      [{ blockNumber: '0x0' }, '0x0'],
      [{ blockNumber: '0x1' }, after],
      [{ blockNumber: 'earliest' }, '0x0'],
      [{ blockHash: genesis.hash }, '0x0'],
      [{ blockHash: head.hash }, after],
      [{ blockHash: head.hash, requireCanonical: true }, after],
      [{ blockHash: head.hash.toUpperCase().replace('0X', '0x') }, after],
    ]
    for (const [block, balance] of cases) expect([block, await call('eth_getBalance', to, block)]).toEqual([block, balance])
  })

  test('addresses are accepted in any case; an unknown account has 0', async () => {
    const call = await fresh()
    const checksummed = new Wallet(DEV[1].key).address
    expect(await call('eth_getBalance', checksummed, 'latest')).toBe(hex(TEN_THOUSAND_ETH))
    expect(await call('eth_getBalance', DEV[1].address.toUpperCase().replace('0X', '0x'), 'latest')).toBe(hex(TEN_THOUSAND_ETH))
    expect(await call('eth_getBalance', Wallet.createRandom().address, 'latest')).toBe('0x0')
  })
})

describe('eth_getTransactionCount', () => {
  test('counts mined transactions at each block', async () => {
    const call = await fresh()
    await call('eth_sendRawTransaction', await signTx(DEV[0].key))
    await call('eth_sendRawTransaction', await signTx(DEV[0].key, { nonce: 1 }))
    expect(await call('eth_getTransactionCount', DEV[0].address, '0x0')).toBe('0x0')
    expect(await call('eth_getTransactionCount', DEV[0].address, '0x1')).toBe('0x1')
    expect(await call('eth_getTransactionCount', DEV[0].address, 'latest')).toBe('0x2')
    expect(await call('eth_getTransactionCount', DEV[0].address, 'earliest')).toBe('0x0')
    // Under automine nothing stays pooled: pending equals latest.
    expect(await call('eth_getTransactionCount', DEV[0].address, 'pending')).toBe('0x2')
    expect(await call('eth_getTransactionCount', DEV[1].address, 'latest')).toBe('0x0')
  })

  test('`pending` adds the pooled transactions that can run next, not those behind a gap', async () => {
    const call = await fresh({ mining: { mode: 'manual' } })
    for (const nonce of [0, 1, 3]) await call('eth_sendRawTransaction', await signTx(DEV[0].key, { nonce }))
    expect(await call('eth_getTransactionCount', DEV[0].address, 'latest')).toBe('0x0')
    expect(await call('eth_getTransactionCount', DEV[0].address, 'pending')).toBe('0x2')
    expect(await call('eth_getTransactionCount', DEV[1].address, 'pending')).toBe('0x0')
    // The gap filled: nonce 3 joins the run.
    await call('eth_sendRawTransaction', await signTx(DEV[0].key, { nonce: 2 }))
    expect(await call('eth_getTransactionCount', DEV[0].address, 'pending')).toBe('0x4')
  })
})

describe('eth_getCode and eth_getStorageAt', () => {
  test('code appears at the deployment block, storage changes at the call', async () => {
    const call = await fresh()
    const address = await probeWithValue(call)
    expect(await call('eth_getCode', address, '0x0')).toBe('0x')
    expect(await call('eth_getCode', address, '0x1')).toBe(artifacts.Probe.deployedBytecode)
    expect(await call('eth_getCode', address, 'latest')).toBe(artifacts.Probe.deployedBytecode)

    expect(await call('eth_getStorageAt', address, '0x0', '0x1')).toBe(word(0))
    expect(await call('eth_getStorageAt', address, '0x0', '0x2')).toBe(word(42))
    expect(await call('eth_getStorageAt', address, '0x0')).toBe(word(42))
    expect(await call('eth_getStorageAt', address, '0x0', { blockNumber: '0x1' })).toBe(word(0))
  })

  test('a slot may be short hex, odd-length hex or a full 32-byte word', async () => {
    const call = await fresh()
    const address = await probeWithValue(call)
    for (const slot of ['0x0', '0x00', '0x000', word(0)]) {
      expect(await call('eth_getStorageAt', address, slot, 'latest')).toBe(word(42))
    }
  })

  test('an account without code or storage reads as empty', async () => {
    const call = await fresh()
    expect(await call('eth_getCode', DEV[0].address, 'latest')).toBe('0x')
    expect(await call('eth_getStorageAt', DEV[0].address, '0x0', 'latest')).toBe(word(0))
    expect(await call('eth_getCode', Wallet.createRandom().address, 'latest')).toBe('0x')
  })
})

describe('eth_getProof', () => {
  /** Checks a proof against a state root: the root node, the account, and every storage value. */
  async function verify(proof: Proof, stateRoot: string) {
    expect(keccak256(proof.accountProof[0])).toBe(stateRoot)
    // An empty storage trie has no nodes to show: its proofs are empty, its values zero.
    const empty = proof.storageProof.filter((entry) => entry.proof.length === 0)
    for (const entry of empty) expect([entry.value, proof.storageHash]).toEqual(['0x0', EMPTY_TRIE_ROOT])
    const storageProof = proof.storageProof.filter((entry) => entry.proof.length > 0)
    for (const entry of storageProof) expect(keccak256(entry.proof[0])).toBe(proof.storageHash)
    // Throws unless the account fields and the storage values are what the proofs say.
    expect(await verifyMerkleStateProof(new MerkleStateManager(), { ...proof, storageProof })).toBe(true)
  }

  test('an account and storage proof that hash up to the block state root', async () => {
    const call = await fresh()
    const address = await probeWithValue(call)
    const head = await call<Block>('eth_getBlockByNumber', 'latest', false)
    const mappingSlot = keccak256(AbiCoder.defaultAbiCoder().encode(['uint256', 'uint256'], [7, 1]))
    const proof = await call<Proof>('eth_getProof', address, ['0x0', mappingSlot], 'latest')
    expect(Object.keys(proof)).toEqual(['address', 'accountProof', 'balance', 'codeHash', 'nonce', 'storageHash', 'storageProof'])
    expect(proof.address).toBe(address.toLowerCase())
    expect(proof.codeHash).toBe(keccak256(artifacts.Probe.deployedBytecode))
    expect(proof.nonce).toBe('0x1')
    expect(proof.balance).toBe('0x0')
    expect(proof.storageProof.map(({ key, value }) => ({ key, value }))).toEqual([
      { key: word(0), value: '0x2a' },
      { key: mappingSlot, value: '0x0' },
    ])
    await verify(proof, head.stateRoot)
  })

  test('a historical proof matches that block and not the head', async () => {
    const call = await fresh()
    const address = await probeWithValue(call)
    const deployBlock = await call<Block>('eth_getBlockByNumber', '0x1', false)
    const head = await call<Block>('eth_getBlockByNumber', 'latest', false)
    const proof = await call<Proof>('eth_getProof', address, ['0x0'], '0x1')
    expect(proof.storageProof[0].value).toBe('0x0')
    await verify(proof, deployBlock.stateRoot)
    expect(keccak256(proof.accountProof[0])).not.toBe(head.stateRoot)
  })

  test('a dev account, and the proof of absence of an unknown account', async () => {
    const call = await fresh()
    const genesis = await call<Block>('eth_getBlockByNumber', 'earliest', false)
    const dev = await call<Proof>('eth_getProof', DEV[0].address, [], 'earliest')
    expect(dev.balance).toBe(hex(TEN_THOUSAND_ETH))
    expect(dev.storageProof).toEqual([])
    await verify(dev, genesis.stateRoot)

    const nobody = await call<Proof>('eth_getProof', Wallet.createRandom().address, ['0x1'], { blockHash: genesis.hash })
    expect(nobody).toMatchObject({
      balance: '0x0',
      nonce: '0x0',
      codeHash: keccak256('0x'),
      storageHash: EMPTY_TRIE_ROOT,
    })
    await verify(nobody, genesis.stateRoot)
  })

  test('storage keys must be an array of slots; the block is required', async () => {
    const call = await fresh()
    await expectRpcError(call('eth_getProof', DEV[0].address, '0x0', 'latest'), -32602, /^invalid argument 1 \(storageKeys\): /)
    await expectRpcError(call('eth_getProof', DEV[0].address, ['0xzz'], 'latest'), -32602, /^invalid argument 1 \(storageKeys\): /)
    await expectRpcError(call('eth_getProof', DEV[0].address, []), -32602, 'missing value for required argument 2 (block)')
  })
})

describe('unknown blocks', () => {
  const methods: [string, unknown[]][] = [
    ['eth_getBalance', [DEV[0].address]],
    ['eth_getTransactionCount', [DEV[0].address]],
    ['eth_getCode', [DEV[0].address]],
    ['eth_getStorageAt', [DEV[0].address, '0x0']],
    ['eth_getProof', [DEV[0].address, []]],
  ]

  test.each(methods)('%s at a block beyond the head → -32000 header not found', async (method, params) => {
    const call = await fresh()
    await expectRpcError(call(method, ...params, '0x1'), -32000, 'header not found')
    await expectRpcError(call(method, ...params, { blockNumber: '0x5' }), -32000, 'header not found')
  })

  test.each(methods)('%s at an unknown block hash → -32000', async (method, params) => {
    const call = await fresh()
    const hash = keccak256('0x1234')
    await expectRpcError(call(method, ...params, { blockHash: hash }), -32000, `header for hash ${hash} not found`)
  })
})

describe('bad params', () => {
  const address = DEV[0].address
  test.each([
    ['a short address', 'eth_getBalance', ['0x1234', 'latest'], /^invalid argument 0 \(address\): expected a 20-byte address/],
    ['an address one digit long', 'eth_getCode', [address + '0', 'latest'], /^invalid argument 0 \(address\): /],
    ['an address without 0x', 'eth_getTransactionCount', [address.slice(2), 'latest'], /^invalid argument 0 \(address\): /],
    ['an address that is a number', 'eth_getBalance', [1, 'latest'], /^invalid argument 0 \(address\): /],
    ['no address', 'eth_getBalance', [], 'missing value for required argument 0 (address)'],
    ['a block number as a JSON number', 'eth_getBalance', [address, 1], /^invalid argument 1 \(block\): /],
    ['a block number with a leading zero', 'eth_getBalance', [address, '0x01'], /^invalid argument 1 \(block\): /],
    ['an unknown tag', 'eth_getCode', [address, 'newest'], /^invalid argument 1 \(block\): /],
    [
      'EIP-1898 with both keys',
      'eth_getBalance',
      [address, { blockNumber: '0x0', blockHash: keccak256('0x') }],
      /^invalid argument 1 \(block\): .*not both/,
    ],
    ['EIP-1898 with neither key', 'eth_getBalance', [address, {}], /^invalid argument 1 \(block\): /],
    ['EIP-1898 with a short hash', 'eth_getBalance', [address, { blockHash: '0x1234' }], /^invalid argument 1 \(block\): blockHash: /],
    [
      'requireCanonical not a boolean',
      'eth_getBalance',
      [address, { blockHash: keccak256('0x'), requireCanonical: 'yes' }],
      /^invalid argument 1 \(block\): requireCanonical: /,
    ],
    ['too many arguments', 'eth_getBalance', [address, 'latest', 'latest'], 'too many arguments, want at most 2'],
    ['a slot longer than 32 bytes', 'eth_getStorageAt', [address, `0x${'00'.repeat(33)}`, 'latest'], /^invalid argument 1 \(slot\): /],
    ['a slot that is not hex', 'eth_getStorageAt', [address, 'slot', 'latest'], /^invalid argument 1 \(slot\): /],
    ['an empty slot', 'eth_getStorageAt', [address, '0x', 'latest'], /^invalid argument 1 \(slot\): /],
    ['no slot', 'eth_getStorageAt', [address], 'missing value for required argument 1 (slot)'],
    ['eth_getStorageAt with four arguments', 'eth_getStorageAt', [address, '0x0', 'latest', 1], 'too many arguments, want at most 3'],
  ])('%s → -32602 (%s)', async (_, method, params, message) => {
    const call = await fresh()
    await expectRpcError(call(method, ...params), -32602, message)
  })
})
