import { Interface, hexlify, zeroPadValue, type InterfaceAbi } from 'ethers'
import { expect, test } from 'vitest'
import { hexToBytes } from '@ethereumjs/util'
import {
  EXECUTE_TRANSACTION_SELECTOR,
  isAccountMagic,
  PAY_FOR_TRANSACTION_SELECTOR,
  PREPARE_FOR_PAYMASTER_SELECTOR,
  transactionCalldata,
  VALIDATE_TRANSACTION_SELECTOR,
  type BootloaderTransaction,
} from '../../../src/core/rollup/bootloaderTransaction.ts'
import { artifacts } from '../../support/chain.ts'

const account = new Interface((artifacts.IAccount as { abi: InterfaceAbi }).abi)

const transaction: BootloaderTransaction = {
  from: hexToBytes('0x00000000000000000000000000000000000a11ce'),
  to: hexToBytes('0x000000000000000000000000000000000000b0b0'),
  gasLimit: 300_000n,
  gasPerPubdata: 50_000n,
  maxFeePerGas: 45_250_000n,
  maxPriorityFeePerGas: 1n,
  paymaster: new Uint8Array(),
  nonce: 7n,
  value: 10n ** 15n,
  data: hexToBytes('0xdeadbeef01'),
  signature: new Uint8Array(65).fill(0x11),
  factoryDepHashes: [new Uint8Array(32).fill(2)],
  paymasterInput: new Uint8Array(),
}

test("IAccount's selectors are the ones solc gives the interface; validateTransaction's is the magic 0x202bcce7", () => {
  expect(hexlify(VALIDATE_TRANSACTION_SELECTOR)).toBe('0x202bcce7')
  expect(hexlify(VALIDATE_TRANSACTION_SELECTOR)).toBe(account.getFunction('validateTransaction')!.selector)
  expect(hexlify(PAY_FOR_TRANSACTION_SELECTOR)).toBe(account.getFunction('payForTransaction')!.selector)
  expect(hexlify(PREPARE_FOR_PAYMASTER_SELECTOR)).toBe(account.getFunction('prepareForPaymaster')!.selector)
  expect(hexlify(EXECUTE_TRANSACTION_SELECTOR)).toBe(account.getFunction('executeTransaction')!.selector)
})

test("an account call's calldata is what ethers' ABI coder makes of (txHash, suggestedSignedHash, Transaction)", () => {
  const txHash = new Uint8Array(32).fill(0xaa)
  const signedHash = new Uint8Array(32).fill(0xbb)
  const struct = [
    113n,
    BigInt(hexlify(transaction.from)),
    BigInt(hexlify(transaction.to)),
    transaction.gasLimit,
    transaction.gasPerPubdata,
    transaction.maxFeePerGas,
    transaction.maxPriorityFeePerGas,
    0n,
    transaction.nonce,
    transaction.value,
    [0n, 0n, 0n, 0n],
    transaction.data,
    transaction.signature,
    transaction.factoryDepHashes,
    '0x',
    '0x',
  ]
  for (const name of ['validateTransaction', 'payForTransaction', 'prepareForPaymaster', 'executeTransaction']) {
    const selector = hexToBytes(account.getFunction(name)!.selector as `0x${string}`)
    expect(hexlify(transactionCalldata(selector, txHash, signedHash, transaction))).toBe(account.encodeFunctionData(name, [txHash, signedHash, struct]))
  }
})

test('the magic is one word, the selector left-aligned and the rest zero', () => {
  const word = hexToBytes(zeroPadValue('0x00', 32) as `0x${string}`)
  word.set(VALIDATE_TRANSACTION_SELECTOR)
  expect(isAccountMagic(word)).toBe(true)
  expect(isAccountMagic(VALIDATE_TRANSACTION_SELECTOR)).toBe(false)
  expect(isAccountMagic(new Uint8Array(32))).toBe(false)
  const dirty = word.slice()
  dirty[31] = 1
  expect(isAccountMagic(dirty)).toBe(false)
  expect(isAccountMagic(new Uint8Array([...word, ...new Uint8Array(32)]))).toBe(false)
})
