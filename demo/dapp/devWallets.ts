/**
 * The wallets this dApp signs with, in the page: the first dev accounts of the `test test … test
 * junk` mnemonic (m/44'/60'/0'/0/i), which the node funds at genesis. Their keys are public: they
 * are for a dev chain only. Listed as keys rather than derived, so the page does not run PBKDF2
 * and BIP-32 on load (test/demo/dapp/devWallets.test.ts checks them against the mnemonic).
 */
import { privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts'

export const DEV_KEYS = [
  '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80',
  '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d',
  '0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a',
] as const

export const DEV_WALLETS: readonly PrivateKeyAccount[] = DEV_KEYS.map((key) => privateKeyToAccount(key))
