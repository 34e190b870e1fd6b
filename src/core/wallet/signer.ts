import { concatBytes, hashPersonalMessage, type PrefixedHexString } from '@ethereumjs/util'
import { bytesToHex } from '../hexText.ts'
import { secp256k1 } from '@noble/curves/secp256k1.js'
import type { DevAccount } from '../chain/devAccounts.ts'
import type { Node } from '../node.ts'
import { UnauthorizedError } from '../errors.ts'

/** The dev account holding `address`'s key; 4100 when the node has none (EIP-1193). */
export function devAccount(node: Node, address: PrefixedHexString): DevAccount {
  const account = node.accounts.find((a) => a.address.toString() === address)
  if (!account) {
    throw new UnauthorizedError(`the node holds no key for ${address}: it signs for its dev accounts only (eth_accounts)`)
  }
  return account
}

/**
 * A 65-byte signature r ‖ s ‖ v with v 27 or 28, as eth_sign, personal_sign and
 * eth_signTypedData_v4 return it. Deterministic (RFC 6979), as ethers' and viem's are, so the
 * same request always gives the same signature.
 */
export function signDigest(account: DevAccount, digest: Uint8Array): PrefixedHexString {
  const signature = secp256k1.Signature.fromBytes(
    secp256k1.sign(digest, account.privateKey, { prehash: false, format: 'recovered', extraEntropy: false }),
    'recovered',
  )
  return bytesToHex(concatBytes(signature.toBytes('compact'), Uint8Array.of(27 + signature.recovery!)))
}

/** EIP-191 version 0x45: keccak256("\x19Ethereum Signed Message:\n" + length + message). */
export function signMessage(account: DevAccount, message: Uint8Array): PrefixedHexString {
  return signDigest(account, hashPersonalMessage(message))
}
