import { bigIntToHex, hexToBytes, utf8ToBytes, type PrefixedHexString } from '@ethereumjs/util'
import { bytesToHex } from '../../hexText.ts'
import { transactionBytes } from '../../exec/rawTransaction.ts'
import type { Node } from '../../node.ts'
import { devAccount, signMessage } from '../../wallet/signer.ts'
import { authorize, fillTransaction, signWithDevKey, unsignedFrom, unsignedTransaction } from '../../wallet/transactions.ts'
import { UnrecognizedChainError } from '../../errors.ts'
import { constant, method, type MethodTable } from '../method.ts'
import { address, custom, data, field, optional, ParamError, parseObject, parseQuantity } from '../params.ts'
import { formatFilledTransaction } from '../format/unsignedTransaction.ts'
import { fillRequest, transactionRequest } from '../transactionObject.ts'

/**
 * The node as a wallet over its dev accounts, the way anvil and Hardhat are one: what a dApp's
 * wallet code (wagmi, ethers' BrowserProvider signer, viem's wallet client) asks for. There is
 * no user to ask, so every request for the accounts is granted at once.
 */

/** The dev accounts, then the accounts impersonated by name (as anvil lists them). */
function accounts(node: Node): PrefixedHexString[] {
  const dev = node.accounts.map((account) => account.address.toString())
  return [...dev, ...node.impersonation.list().filter((a) => !dev.includes(a))]
}

/** EIP-2255: the one permission this wallet grants. */
function permissions(node: Node) {
  return [
    {
      invoker: 'pagenode',
      parentCapability: 'eth_accounts',
      caveats: [{ type: 'restrictReturnedAccounts', value: accounts(node) }],
    },
  ]
}

/** personal_sign's message: hex bytes, or (as MetaMask takes it) text signed as UTF-8. */
function parseMessage(value: unknown): Uint8Array {
  if (typeof value !== 'string') throw new ParamError(`expected the message as hex bytes or text, got ${JSON.stringify(value)}`)
  return /^0x([0-9a-fA-F]{2})*$/.test(value) ? hexToBytes(value as PrefixedHexString) : utf8ToBytes(value)
}

function parseChainSwitch(value: unknown): bigint {
  return field(parseObject(value), 'chainId', parseQuantity)
}

function parsePermissionRequest(value: unknown): void {
  for (const name of Object.keys(parseObject(value))) {
    if (name !== 'eth_accounts') throw new ParamError(`unknown permission ${name}: this wallet grants eth_accounts only`)
  }
}

export const walletMethods: MethodTable = {
  eth_accounts: constant(accounts),
  // EIP-1102: the same accounts, granted without asking.
  eth_requestAccounts: constant(accounts),

  eth_sendTransaction: method([transactionRequest('transaction')], async (node, [request]) => {
    const sign = authorize(node, request.from)
    if (request.nonce !== undefined) return node.submit(sign(await fillTransaction(node, request)))
    return node.nonces.run(request.from, async (admitted) => node.submit(sign(await fillTransaction(node, request)), admitted))
  }),
  // anvil's: from any sender, unsigned, impersonated or not.
  eth_sendUnsignedTransaction: method([transactionRequest('transaction')], async (node, [request]) =>
    request.nonce !== undefined
      ? node.submit(unsignedFrom(node, request.from, await fillTransaction(node, request)))
      : node.nonces.run(request.from, async (admitted) => node.submit(unsignedFrom(node, request.from, await fillTransaction(node, request)), admitted)),
  ),
  eth_signTransaction: method([transactionRequest('transaction')], async (node, [request]) => {
    devAccount(node, request.from)
    return bytesToHex(transactionBytes(signWithDevKey(node, request.from, await fillTransaction(node, request))))
  }),

  // geth's: what eth_sendTransaction would fill in, unsigned, for any sender (viem tries it first
  // for every transaction a local account signs).
  eth_fillTransaction: method([fillRequest('transaction')], async (node, [request]) =>
    formatFilledTransaction(unsignedTransaction(node, await fillTransaction(node, request))),
  ),

  eth_sign: method([address('address'), data('message')], (node, [who, message]) => signMessage(devAccount(node, who), message)),
  // (message, address); MetaMask's optional third argument, a password, means nothing here.
  personal_sign: method([custom('message', parseMessage), address('address'), optional(custom('password', () => undefined))], (node, [message, who]) =>
    signMessage(devAccount(node, who), message),
  ),
  wallet_switchEthereumChain: method([custom('chain', parseChainSwitch)], (node, [chainId]) => {
    if (chainId !== node.chainId) {
      throw new UnrecognizedChainError(`Unrecognized chain ID ${bigIntToHex(chainId)}: this node is chain ${bigIntToHex(node.chainId)} and switches to no other`)
    }
    return null
  }),
  wallet_getPermissions: constant(permissions),
  wallet_requestPermissions: method([custom('permissions', parsePermissionRequest)], (node) => permissions(node)),
}
