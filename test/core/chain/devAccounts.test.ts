import { HDKey } from '@scure/bip32'
import { mnemonicToSeedSync } from '@scure/bip39'
import { bytesToHex, createAddressFromPrivateKey } from '@ethereumjs/util'
import { expect, test } from 'vitest'
import { deriveDevAccounts } from '../../../src/core/chain/devAccounts.ts'
import { DEV_MNEMONIC } from '../../../src/core/config.ts'

const plain = (accounts: { privateKey: Uint8Array; address: { toString(): string } }[]) =>
  accounts.map((account) => [bytesToHex(account.privateKey), account.address.toString()])

test("the default mnemonic's stored accounts are the ones BIP-32 derives at m/44'/60'/0'/0/i", async () => {
  const parent = HDKey.fromMasterSeed(mnemonicToSeedSync(DEV_MNEMONIC)).derive("m/44'/60'/0'/0")
  const derived = Array.from({ length: 11 }, (_, i) => {
    const privateKey = parent.deriveChild(i).privateKey!
    return { privateKey, address: createAddressFromPrivateKey(privateKey) }
  })
  expect(plain(await deriveDevAccounts(DEV_MNEMONIC, 10))).toEqual(plain(derived.slice(0, 10)))
  // More than the table holds: derived, the first ones the same.
  expect(plain(await deriveDevAccounts(DEV_MNEMONIC, 11))).toEqual(plain(derived))
  expect(plain(await deriveDevAccounts(DEV_MNEMONIC, 3))).toEqual(plain(derived.slice(0, 3)))
})
