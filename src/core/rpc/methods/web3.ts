import { bytesToHex } from '../../hexText.ts'
import { keccak_256 } from '@noble/hashes/sha3.js'
import { VERSION } from '../../version.ts'
import { constant, method, type MethodTable } from '../method.ts'
import { data } from '../params.ts'

export const web3Methods: MethodTable = {
  // Tools that drive dev nodes (Hardhat's network helpers and predeploys, v1 and v3) accept a node
  // only when this starts with 'hardhatnetwork', 'zksync' or 'anvil' (case-insensitively).
  // pagenode is a ZKsync dev node, as anvil-zksync ('zkSync/v…') is: it says so first, then its name.
  web3_clientVersion: constant(() => `zkSync/pagenode/v${VERSION}`),
  web3_sha3: method([data('data')], (_node, [bytes]) => bytesToHex(keccak_256(bytes))),
}
