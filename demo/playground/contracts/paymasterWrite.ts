/**
 * A contract write whose fee a paymaster pays (ZKsync's `General` flow): a 0x71 transaction with
 * `paymasterParams`. The node signs eth_sendTransaction only without them (a 0x71 transaction is
 * the client's to sign), so the page signs it, with the dev account's key: the dev accounts'
 * keys are the public "test … junk" mnemonic's, which the page derives as any wallet would.
 * viem's zksync actions estimate it (with the paymaster's steps), sign it and send it raw.
 */
import { createWalletClient, custom, defineChain, type EIP1193Provider } from 'viem'
import { mnemonicToAccount, type HDAccount } from 'viem/accounts'
import { chainConfig, eip712WalletActions, getGeneralPaymasterInput } from 'viem/zksync'
import { DEV_MNEMONIC } from '../../../src/core/config.ts'
import type { Hex } from '../session.ts'

/** How many of the mnemonic's accounts to look through for the sender's key. */
const DERIVED_ACCOUNTS = 20

const derived = new Map<string, HDAccount>()

/** The dev account's key, derived from the mnemonic; undefined when the sender is not one of its first accounts. */
function devAccount(address: Hex): HDAccount | undefined {
  const wanted = address.toLowerCase()
  for (let index = 0; index < DERIVED_ACCOUNTS && !derived.has(wanted); index++) {
    const account = mnemonicToAccount(DEV_MNEMONIC, { addressIndex: index })
    derived.set(account.address.toLowerCase(), account)
  }
  return derived.get(wanted)
}

/** What the write needs of the session: the chain it signs for and the provider it sends through. */
export interface ChainAccess {
  chainId: number
  provider: { request(args: { method: string; params?: unknown }): Promise<unknown> }
}

export interface PaymasterWrite {
  from: Hex
  to: Hex
  data: Hex
  value?: bigint
  paymaster: Hex
}

/** Signs and sends the write with the paymaster's `general(0x)` input; resolves with its hash. */
export async function sendWithPaymaster(session: ChainAccess, write: PaymasterWrite): Promise<Hex> {
  const account = devAccount(write.from)
  if (!account) throw new Error(`The page holds no key for ${write.from}: a write paid by a paymaster is signed in the page, from one of the first ${DERIVED_ACCOUNTS} accounts of the dev mnemonic.`)
  // A ZKsync chain to viem (its 0x71 serializer and EIP-712 domain), by the node's chain id. Not
  // from viem/chains: that module pulls every chain into the build.
  const chain = defineChain({ ...chainConfig, id: session.chainId, name: 'pagenode playground', nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, rpcUrls: { default: { http: [] } } })
  const wallet = createWalletClient({ account, chain, transport: custom(session.provider as EIP1193Provider) }).extend(eip712WalletActions())
  return wallet.sendTransaction({
    to: write.to,
    data: write.data,
    value: write.value ?? 0n,
    paymaster: write.paymaster,
    paymasterInput: getGeneralPaymasterInput({ innerInput: '0x' }),
  })
}
