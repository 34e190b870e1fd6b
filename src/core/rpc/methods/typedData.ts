import { devAccount, signDigest } from '../../wallet/signer.ts'
import { parseTypedData, typedDataDigest } from '../../wallet/typedData.ts'
import { method, type MethodTable } from '../method.ts'
import { address, custom } from '../params.ts'

/**
 * EIP-712 signing by a dev account (the wallet's other methods are in wallet.ts). Loaded on its
 * first call (onDemand.ts): the typed-data encoder is needed by no other method.
 */
export const typedDataMethods = {
  // The digest is computed while parsing, so a value that does not fit its type is -32602.
  eth_signTypedData_v4: method([address('address'), custom('typedData', (v) => typedDataDigest(parseTypedData(v)))], (node, [who, digest]) =>
    signDigest(devAccount(node, who), digest),
  ),
} satisfies MethodTable
