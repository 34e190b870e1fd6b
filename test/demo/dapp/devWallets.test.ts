import { expect, test } from 'vitest'
import { mnemonicToAccount } from 'viem/accounts'
import { DEV_WALLETS } from '../../../demo/dapp/devWallets.ts'

test("the dApp's wallets are the first dev accounts of the test … junk mnemonic", () => {
  const mnemonic = 'test test test test test test test test test test test junk'
  expect(DEV_WALLETS.map((w) => w.address)).toEqual(DEV_WALLETS.map((_, i) => mnemonicToAccount(mnemonic, { addressIndex: i }).address))
})
