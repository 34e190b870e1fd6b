import type { MerkleStateManager } from '@ethereumjs/statemanager'
import { getMerkleStateProof } from '@ethereumjs/statemanager'
import { createAddressFromString } from '@ethereumjs/util'
import { bytesToHex } from '../../../hexText.ts'
import { method, type MethodTable } from '../../method.ts'
import { address, blockRef, custom, parseArrayOf } from '../../params.ts'
import { parseSlot } from './state.ts'

const parseSlots = parseArrayOf('storage slots', parseSlot)

/** EIP-1186's Merkle proofs of an account and its storage, at any block. Loaded on the first call (onDemand.ts), the proof code with it. */
export const proofMethods = {
  eth_getProof: method(
    [address('address'), custom('storageKeys', parseSlots), blockRef('block')],
    async (node, [who, slots, ref]) => {
      const sandbox = await node.sandbox(node.block(ref))
      const proof = await sandbox.read((vm) =>
        getMerkleStateProof(vm.stateManager as MerkleStateManager, createAddressFromString(who), slots),
      )
      return {
        address: who,
        accountProof: proof.accountProof,
        balance: proof.balance,
        codeHash: proof.codeHash,
        nonce: proof.nonce,
        storageHash: proof.storageHash,
        storageProof: proof.storageProof.map((entry, i) => ({
          key: bytesToHex(slots[i]),
          value: entry.value,
          proof: entry.proof,
        })),
      }
    },
  ),
} satisfies MethodTable
