import { bigIntToHex, createAddressFromString, setLengthLeft } from '@ethereumjs/util'
import { bytesToHex } from '../../../hexText.ts'
import { method, type MethodTable } from '../../method.ts'
import { address, blockOrLatest, custom, ParamError, wordOf } from '../../params.ts'

/** A storage slot: hex of at most 32 bytes (geth accepts short forms like "0x0"). */
export function parseSlot(value: unknown): Uint8Array {
  const slot = wordOf(value)
  if (slot === undefined) throw new ParamError(`expected a storage slot (0x-prefixed hex, at most 32 bytes), got ${JSON.stringify(value)}`)
  return slot
}

/** Account state at any block: every block's state root stays readable. */
export const stateMethods: MethodTable = {
  eth_getBalance: method([address('address'), blockOrLatest()], async (node, [who, ref]) => {
    const account = await node.account(who, node.block(ref))
    return bigIntToHex(account?.balance ?? 0n)
  }),

  eth_getTransactionCount: method([address('address'), blockOrLatest()], async (node, [who, ref]) => {
    const block = node.block(ref)
    if (ref.kind === 'tag' && ref.tag === 'pending') {
      // The miner's head, stored or not (a transaction mined a moment ago has left the pool but
      // its block may still be on its way to the store), and the sender's pooled transactions
      // that can run next, as geth does: the nonce a new transaction must take.
      const nonce = (await node.miner.headAccount(who))?.nonce ?? 0n
      return bigIntToHex(nonce + BigInt(node.pool.executableCount(who, nonce)))
    }
    return bigIntToHex((await node.account(who, block))?.nonce ?? 0n)
  }),

  eth_getCode: method([address('address'), blockOrLatest()], async (node, [who, ref]) => {
    const sandbox = await node.sandbox(node.block(ref))
    return bytesToHex(await sandbox.read((vm) => vm.stateManager.getCode(createAddressFromString(who))))
  }),

  eth_getStorageAt: method([address('address'), custom('slot', parseSlot), blockOrLatest()], async (node, [who, slot, ref]) => {
    const sandbox = await node.sandbox(node.block(ref))
    const value = await sandbox.read((vm) => vm.stateManager.getStorage(createAddressFromString(who), slot))
    return bytesToHex(setLengthLeft(value, 32))
  }),
}
