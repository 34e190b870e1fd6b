import type { MerkleStateManager } from '@ethereumjs/statemanager'
import { Account, createAddressFromString, equalsBytes, setLengthLeft, type PrefixedHexString } from '@ethereumjs/util'
import { stateRootOf, withEditedStateRoot } from '../chain/records.ts'
import type { Node } from '../node.ts'

/**
 * Dev-node edits of the head's state (anvil_setBalance, anvil_setCode, anvil_setNonce,
 * anvil_setStorageAt, anvil_loadState), as anvil and Hardhat make them: at once, with no block.
 *
 * The block number does not move. The head's record gets the new state root (`editedStateRoot`):
 * reads at `latest` see the edit, the next block is built on it, and the header keeps the root the
 * block was mined with. The record is stored again with the trie nodes the edit made, in one
 * commit, before the call is answered, so an edit survives a restart like a block does
 * (docs/architecture.md, "Storage and durability"). A commit the store refuses leaves the state as
 * it was.
 */
export async function editState(node: Node, edit: (state: MerkleStateManager) => Promise<void>): Promise<void> {
  await node.miner.exclusive(async () => {
    const sm = node.state.vm.stateManager as MerkleStateManager
    const head = node.chain.head
    const before = stateRootOf(head)
    let after: Uint8Array
    try {
      // One flush of every account the edit changes (anvil_loadState: a whole dump), one write of
      // each node of the new state (exec/batchFlushedState.ts).
      await edit(sm)
      after = await sm.getStateRoot()
    } catch (error) {
      await sm.setStateRoot(before)
      throw error
    }
    if (equalsBytes(after, before)) return
    const editedStateRoot = equalsBytes(after, head.header.stateRoot) ? undefined : after
    node.writer.enqueue(withEditedStateRoot(head, editedStateRoot))
    try {
      await node.writer.settled()
    } catch (error) {
      await sm.setStateRoot(before)
      throw error
    }
    if (editedStateRoot) head.editedStateRoot = editedStateRoot
    else delete head.editedStateRoot
  })
}

/** Changes the account at `address` (created empty when it does not exist). */
function editAccount(node: Node, address: PrefixedHexString, change: (account: Account) => void): Promise<void> {
  return editState(node, async (sm) => {
    const at = createAddressFromString(address)
    const account = (await sm.getAccount(at)) ?? new Account()
    change(account)
    await sm.putAccount(at, account)
  })
}

export function setBalance(node: Node, address: PrefixedHexString, balance: bigint): Promise<void> {
  return editAccount(node, address, (account) => {
    account.balance = balance
  })
}

export function setNonce(node: Node, address: PrefixedHexString, nonce: bigint): Promise<void> {
  return editAccount(node, address, (account) => {
    account.nonce = nonce
  })
}

export function setCode(node: Node, address: PrefixedHexString, code: Uint8Array): Promise<void> {
  return editState(node, (sm) => sm.putCode(createAddressFromString(address), code))
}

/** Writes a storage slot; a zero value clears it. */
export function setStorageAt(node: Node, address: PrefixedHexString, slot: Uint8Array, value: Uint8Array): Promise<void> {
  return editState(node, async (sm) => {
    const where = createAddressFromString(address)
    if (!(await sm.getAccount(where))) await sm.putAccount(where, new Account())
    await sm.putStorage(where, setLengthLeft(slot, 32), value)
  })
}
