import { bytesToHex, concatBytes, hexToBytes, setLengthLeft, type PrefixedHexString } from '@ethereumjs/util'
import { keccak_256 } from '@noble/hashes/sha3.js'
import { describe, expect, test } from 'vitest'
import type { LogRecord } from '../../../src/core/chain/records.ts'
import { bytecodeHash } from '../../../src/core/rollup/bytecodeHash.ts'
import { readEip712Transaction } from '../../../src/core/rollup/eip712Transaction.ts'
import { L1_MESSAGE_SENT_TOPIC, L1_MESSENGER_ADDRESS } from '../../../src/core/rollup/l1Messenger.ts'
import { serializeL2ToL1Log, type BatchL2ToL1Log, type L2ToL1Log } from '../../../src/core/rollup/l2ToL1Logs.ts'
import { l2ToL1LogProof } from '../../../src/core/rollup/logProof.ts'
import { EMPTY_SUBTREE_ROOTS, logsTreeRoot } from '../../../src/core/rollup/logsMerkleTree.ts'

// Vectors from zksync-ethers' unit tests and era's constants (docs/zksync.md, "Test vectors").
const ADDRESS1 = '0x36615cf349d7f6344891b1e7ca7c72883f5dc049'
const WITHDRAW_MESSAGE = '0x6c0960f936615cf349d7f6344891b1e7ca7c72883f5dc04900000000000000000000000000000000000000000000000000000001a13b8600'
const WITHDRAW_LEAF = '0x521bd25904766c83fe868d6a29cbffa011afd8a1754f6c9a52b053b693e42f18'

const EMPTY_SUBTREES = [
  '72abee45b59e344af8a6e520241c4744aff26ed411f4c4b00f8af09adada43ba',
  'c3d03eebfd83049991ea3d3e358b6712e7aa2e2e63dc2d4b438987cec28ac8d0',
  'e3697c7f33c31a9b0f0aeb8542287d0d21e8c4cf82163d0c44c7a98aa11aa111',
  '199cc5812543ddceeddd0fc82807646a4899444240db2c0d2f20c3cceb5f51fa',
  'e4733f281f18ba3ea8775dd62d2fcd84011c8c938f16ea5790fd29a03bf8db89',
  '1798a1fd9c8fbb818c98cff190daa7cc10b6e5ac9716b4a2649f7c2ebcef2272',
  '66d7c5983afe44cf15ea8cf565b34c6c31ff0cb4dd744524f7842b942d08770d',
  'b04e5ee349086985f74b73971ce9dfe76bbed95c84906c5dffd96504e1e5396c',
  'ac506ecb5465659b3a927143f6d724f91d8d9c4bdb2463aee111d9aa869874db',
  '124b05ec272cecd7538fdafe53b6628d31188ffb6f345139aac3c3c1fd2e470f',
  'c3be9cbd19304d84cca3d045e06b8db3acd68c304fc9cd4cbffe6d18036cb13f',
  'fef7bd9f889811e59e4076a0174087135f080177302763019adaf531257e3a87',
  'a707d1c62d8be699d34cb74804fdd7b4c568b6c1a821066f126c680d4b83e00b',
  'f6e093070e0389d2e529d60fadb855fdded54976ec50ac709e3a36ceaa64c291',
  '375a5bf909cb02143e3695ca658e0641e739aa590f0004dba93572c44cdb9d2d',
].map((hex) => `0x${hex}`)

const keccak = (...parts: Uint8Array[]) => keccak_256(concatBytes(...parts))

/** A message log as the L1Messenger leaves it: key = sender, value = keccak(message). */
function messageLog(sender: PrefixedHexString, message: PrefixedHexString): L2ToL1Log {
  const key = bytesToHex(setLengthLeft(hexToBytes(sender), 32))
  const value = bytesToHex(keccak_256(hexToBytes(message)))
  const event: LogRecord = { address: L1_MESSENGER_ADDRESS, topics: [L1_MESSAGE_SENT_TOPIC, key, value], data: '0x', logIndex: 0, transactionLogIndex: 0 }
  return { shardId: 0, isService: true, sender: L1_MESSENGER_ADDRESS, key, value, event, transactionLogIndex: 0 }
}

function batchLog(log: L2ToL1Log, txIndexInBatch: number): BatchL2ToL1Log {
  return { log, txIndexInBatch } as BatchL2ToL1Log
}

/** era-contracts Merkle.calculateRoot, written out here so the proofs are checked independently. */
function calculateRoot(path: Uint8Array[], index: number, leaf: Uint8Array): Uint8Array {
  let node = leaf
  for (const sibling of path) {
    node = index % 2 === 0 ? keccak(node, sibling) : keccak(sibling, node)
    index >>= 1
  }
  return node
}

/** What L1's MessageHashing does with a protocol ≥ 26 proof: metadata, then a plain path. */
function verifyProof(proof: PrefixedHexString[], id: number, leaf: Uint8Array): PrefixedHexString {
  const metadata = hexToBytes(proof[0])
  expect([...metadata.subarray(0, 4)]).toEqual([0x01, proof.length - 1, 0x00, 0x01])
  expect(metadata.subarray(4).every((byte) => byte === 0)).toBe(true)
  return bytesToHex(calculateRoot(proof.slice(1).map((node) => hexToBytes(node)), id, leaf))
}

describe('L2→L1 logs', () => {
  test('a message log serializes to 88 bytes whose hash is the zksync-ethers leaf', () => {
    const bytes = serializeL2ToL1Log(messageLog(ADDRESS1, WITHDRAW_MESSAGE), 0)
    expect(bytes.length).toBe(88)
    expect(bytesToHex(keccak_256(bytes))).toBe(WITHDRAW_LEAF)
  })

  test('the transaction index enters as a big-endian u16 at bytes 2..4', () => {
    const bytes = serializeL2ToL1Log(messageLog(ADDRESS1, WITHDRAW_MESSAGE), 0x1234)
    expect([...bytes.subarray(0, 4)]).toEqual([0, 1, 0x12, 0x34])
    expect(() => serializeL2ToL1Log(messageLog(ADDRESS1, WITHDRAW_MESSAGE), 0x10000)).toThrow(RangeError)
  })

  test("the empty subtree roots are era's (depth 0: keccak of 88 zero bytes; 14: an empty batch's root)", () => {
    expect(EMPTY_SUBTREE_ROOTS.map((root) => bytesToHex(root))).toEqual(EMPTY_SUBTREES)
    expect(bytesToHex(logsTreeRoot([]))).toBe(EMPTY_SUBTREES[14])
  })

  test('a single-log batch: the local root, the 14 empty siblings, and the root under a zero aggregated root', () => {
    const logs = [batchLog(messageLog(ADDRESS1, WITHDRAW_MESSAGE), 0)]
    expect(bytesToHex(logsTreeRoot([hexToBytes(WITHDRAW_LEAF)]))).toBe('0xf8591a5ff502051893e20ac661fbb509c609edbaac0aaac8b72a9d18c69e6f27')
    const proof = l2ToL1LogProof(logs, 0)
    expect(proof.id).toBe(0)
    expect(proof.proof).toHaveLength(16)
    expect(proof.proof[0]).toBe('0x010f000100000000000000000000000000000000000000000000000000000000')
    expect(proof.proof.slice(1, 15)).toEqual(EMPTY_SUBTREES.slice(0, 14))
    expect(proof.proof[15]).toBe(bytesToHex(new Uint8Array(32)))
    expect(proof.root).toBe('0x85d5b0cd193b5e2b3df0d351a8eb3eee4e2a3f00a8f3510779adcd27b0bb0ecb')
    expect(verifyProof(proof.proof, 0, hexToBytes(WITHDRAW_LEAF))).toBe(proof.root)
  })

  test('every log of a many-log batch proves against the same root, and no other leaf does', () => {
    const logs = Array.from({ length: 11 }, (_, i) => batchLog(messageLog(ADDRESS1, `0x${i.toString(16).padStart(4, '0')}`), i >> 1))
    const leaves = logs.map((entry) => keccak_256(serializeL2ToL1Log(entry.log, entry.txIndexInBatch)))
    const proofs = logs.map((_, id) => l2ToL1LogProof(logs, id))
    const root = proofs[0].root
    proofs.forEach((proof, id) => {
      expect(proof.root).toBe(root)
      expect(verifyProof(proof.proof, id, leaves[id])).toBe(root)
      expect(verifyProof(proof.proof, id, leaves[(id + 1) % leaves.length])).not.toBe(root)
    })
    expect(() => l2ToL1LogProof(logs, 11)).toThrow(RangeError)
  })
})

describe('EIP-712 transactions', () => {
  // zksync-ethers tests/unit/utils.test.ts: {chainId 270, from ADDRESS1, to ADDRESS2, value 1_000_000}
  // signed with an EIP-2098 signature of yParity 1 (it recovers to no particular account).
  const SIGNED =
    '0x71f87f8080808094a61464658afeaf65cccaafd3a512b69a83b77618830f42408001a073a20167b8d23b610b058c05368174495adf7da3a4ed4a57eb6dbdeb1fafc24aa02f87530d663a0d061f69bb564d2c6fb46ae5ae776bbd4bd2a2a4478b9cd1b42a82010e9436615cf349d7f6344891b1e7ca7c72883f5dc04982c350c080c0'
  const CUSTOM_SIGNATURE_WITH_PAYMASTER =
    '0x71f901628080808094a61464658afeaf65cccaafd3a512b69a83b77618830f42408082010e808082010e9436615cf349d7f6344891b1e7ca7c72883f5dc04982c350c0b884307837373262396162343735386435636630386637643732303161646332653534383933616532376263666562323162396337643666643430393766346464653063303166376630353332323866346636643838653662663334333436343931343135363761633930363632306661653832633239333339393062353563613336363162f89b94a222f0c183afa73a8bc1afb48d34c88c9bf7a174b884949431dc000000000000000000000000841c43fa5d8fffdb9efe3358906f7578d8700dd4000000000000000000000000000000000000000000000000000000000000000100000000000000000000000000000000000000000000000000000000000000600000000000000000000000000000000000000000000000000000000000000000'

  test('the signed vector: its digest, and its hash over r‖s‖v with v normalised to 28', () => {
    const reading = readEip712Transaction(hexToBytes(SIGNED))
    expect(bytesToHex(reading.digest)).toBe('0x8dab5bf770e684d64358f554ad181cf6c4c5b92d54f45b2b70127efd7061042a')
    expect(reading.signature[64]).toBe(28)
    expect(reading.hash).toBe('0x8efdc7ce5f5a75ab945976c3e2b0c2a45e9f8e15ff940d05625ac5545cd9f870')
    expect(bytesToHex(reading.fields.from)).toBe(ADDRESS1)
    expect(reading.fields.value).toBe(1_000_000n)
    expect(reading.fields.chainId).toBe(270n)
  })

  test('a custom signature and a paymaster enter the hash', () => {
    const reading = readEip712Transaction(hexToBytes(CUSTOM_SIGNATURE_WITH_PAYMASTER))
    expect(reading.hash).toBe('0xc0ba55587423e1ef281b06a9d684b481365897f37a6ad611d7619b1b7e0bc908')
    expect(bytesToHex(reading.fields.paymaster)).toBe('0xa222f0c183afa73a8bc1afb48d34c88c9bf7a174')
  })

  test('a malformed 0x71 payload is named, not crashed on', () => {
    expect(() => readEip712Transaction(hexToBytes('0x71c0'))).toThrow('an EIP-712 transaction is an RLP list of 16 fields, got 0')
    expect(() => readEip712Transaction(hexToBytes('0x71ff'))).toThrow(/invalid transaction/)
    // from (field 11) cut to 19 bytes
    const shortFrom = SIGNED.replace('9436615cf349d7f6344891b1e7ca7c72883f5dc049', '9336615cf349d7f6344891b1e7ca7c72883f5dc0').replace('0x71f87f', '0x71f87e')
    expect(() => readEip712Transaction(hexToBytes(shortFrom as PrefixedHexString))).toThrow('from must be a 20-byte address')
  })
})

describe('bytecode hashes', () => {
  // zksync-ethers tests/unit/utils.test.ts (#hashBytecode, the case whose length needs padding).
  const BYTECODE =
    '0x000200000000000200010000000103550000006001100270000000130010019d0000008001000039000000400010043f0000000101200190000000290000c13d0000000001000031000000040110008c000000420000413d0000000101000367000000000101043b000000e001100270000000150210009c000000310000613d000000160110009c000000420000c13d0000000001000416000000000110004c000000420000c13d000000040100008a00000000011000310000001702000041000000200310008c000000000300001900000000030240190000001701100197000000000410004c000000000200a019000000170110009c00000000010300190000000001026019000000000110004c000000420000c13d00000004010000390000000101100367000000000101043b000000000010041b0000000001000019000000490001042e0000000001000416000000000110004c000000420000c13d0000002001000039000001000010044300000120000004430000001401000041000000490001042e0000000001000416000000000110004c000000420000c13d000000040100008a00000000011000310000001702000041000000000310004c000000000300001900000000030240190000001701100197000000000410004c000000000200a019000000170110009c00000000010300190000000001026019000000000110004c000000440000613d00000000010000190000004a00010430000000000100041a000000800010043f0000001801000041000000490001042e0000004800000432000000490001042e0000004a00010430000000000000000000000000000000000000000000000000000000000000000000000000ffffffff0000000200000000000000000000000000000040000001000000000000000000000000000000000000000000000000000000000000000000000000006d4ce63c0000000000000000000000000000000000000000000000000000000060fe47b18000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000002000000080000000000000000000000000000000000000000000000000000000000000000000000000000000009c8c8fa789967eb514f3ec9def748480945cc9b10fcbd1a19597d924eb201083'

  test('the versioned hash: 0x0100, the length in words, sha256 after that', () => {
    expect([...bytecodeHash(hexToBytes(BYTECODE))]).toEqual([
      1, 0, 0, 27, 57, 231, 154, 55, 0, 164, 201, 96, 244, 120, 23, 112, 54, 34, 224, 133, 160, 122, 88, 164, 112, 80, 0, 134, 48, 138, 74, 16,
    ])
  })

  test("bytecode that is not whole words, or an even number of them, is refused with era's reasons", () => {
    expect(() => bytecodeHash(new Uint8Array(33))).toThrow('divisible by 32')
    expect(() => bytecodeHash(new Uint8Array(64))).toThrow('must be odd')
  })
})
