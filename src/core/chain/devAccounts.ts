import { mnemonicToSeedWebcrypto } from '@scure/bip39'
import { HDKey } from '@scure/bip32'
import { createAddressFromPrivateKey, type Address } from '@ethereumjs/util'

export interface DevAccount {
  address: Address
  privateKey: Uint8Array
}

/**
 * The dev accounts of a mnemonic at m/44'/60'/0'/0/i, as anvil, Hardhat and anvil-zksync derive
 * them. The seed uses WebCrypto's PBKDF2 (native in browsers and Node) rather than a JS loop,
 * which keeps node start-up cheap.
 */
export async function deriveDevAccounts(mnemonic: string, count: number): Promise<DevAccount[]> {
  if (count === 0) return []
  const seed = await mnemonicToSeedWebcrypto(mnemonic)
  const parent = HDKey.fromMasterSeed(seed).derive("m/44'/60'/0'/0")
  const accounts: DevAccount[] = []
  for (let i = 0; i < count; i++) {
    const privateKey = parent.deriveChild(i).privateKey
    if (privateKey === null) throw new Error(`no private key at index ${i}`)
    accounts.push({ address: createAddressFromPrivateKey(privateKey), privateKey })
  }
  return accounts
}
