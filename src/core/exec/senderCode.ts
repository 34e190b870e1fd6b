import type { Message } from '@ethereumjs/evm'
import { Account, equalsBytes, KECCAK256_NULL, type Address } from '@ethereumjs/util'
import type { VM } from '@ethereumjs/vm'

const DELEGATION_PREFIX = Uint8Array.of(0xef, 0x01, 0x00)

/** Whether code is an EIP-7702 delegation: its account is still an EOA that signs for itself. */
export function isDelegation(code: Uint8Array): boolean {
  return equalsBytes(code.subarray(0, 3), DELEGATION_PREFIX)
}

/**
 * Runs `run` (a runTx) so that a sender with code is accepted. geth's eth_call lets a call come
 * from a contract (a multisig, an ERC-4337 entry point), and anvil and Hardhat switch EIP-3607
 * off altogether, so an impersonated contract, or a dev account given code with anvil_setCode,
 * can send transactions. runTx has no switch for it: the sender is shown to its checks without
 * code and gets the code back when execution starts, so calls back into it still find it. An
 * EIP-7702 delegation is accepted by runTx as it is and left alone.
 */
export async function runFromAnySender<T>(vm: VM, from: Address, run: () => Promise<T>): Promise<T> {
  const sm = vm.stateManager
  const account = await sm.getAccount(from)
  if (!account || equalsBytes(account.codeHash, KECCAK256_NULL)) return run()
  if (isDelegation(await sm.getCode(from))) return run()

  const codeHash = account.codeHash
  await sm.putAccount(from, new Account(account.nonce, account.balance, account.storageRoot, KECCAK256_NULL))
  let restored = false
  const restore = async () => {
    if (restored) return
    restored = true
    const now = (await sm.getAccount(from))!
    await sm.putAccount(from, new Account(now.nonce, now.balance, now.storageRoot, codeHash))
  }
  // Two parameters: ethereumjs then waits for `resume` before it runs the message.
  const onMessage = (message: Message, resume?: () => void) => {
    if (message.depth !== 0) return resume!()
    restore().then(resume, resume)
  }
  vm.evm.events!.on('beforeMessage', onMessage)
  try {
    return await run()
  } finally {
    vm.evm.events!.off('beforeMessage', onMessage)
    // A transaction refused before it ran (a nonce, a balance) must not leave the code hidden.
    await restore()
  }
}
