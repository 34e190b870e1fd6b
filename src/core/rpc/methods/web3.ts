import { bytesToHex } from '../../hexText.ts'
import { keccak_256 } from '@noble/hashes/sha3.js'
import { VERSION } from '../../version.ts'
import { constant, method, type MethodTable } from '../method.ts'
import { data } from '../params.ts'

export const web3Methods: MethodTable = {
  web3_clientVersion: constant(() => `pagenode/v${VERSION}`),
  web3_sha3: method([data('data')], (_node, [bytes]) => bytesToHex(keccak_256(bytes))),
}
