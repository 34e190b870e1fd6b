import type { Block } from '@ethereumjs/block'
import { bigIntToHex, createAddressFromString, createContractAddress, createZeroAddress, type PrefixedHexString } from '@ethereumjs/util'
import type { VM } from '@ethereumjs/vm'
import { gethExecutionError, runCall, type CallRequest } from './call.ts'

type AccessList = NonNullable<CallRequest['accessList']>

/** eth_createAccessList's answer (geth's accessListResult). */
export interface AccessListResult {
  accessList: AccessList
  /** Why the call failed with this list, in geth's words; absent when it succeeded. */
  error?: string
  gasUsed: PrefixedHexString
}

/** geth gives up after this many runs whose lists keep changing (it has no bound; a call could loop). */
const MAX_RUNS = 32

/**
 * geth's eth_createAccessList: run the call with the access list it gave, note every address and
 * slot it touched (ethereumjs's reportAccessList), and run again with that list until two runs
 * touch the same (a list changes which branches gas-dependent code takes). The sender, the
 * recipient (or the created contract) and the precompiles are listed only with the slots read or
 * written in them, as geth lists them: the addresses alone are warm anyway. `gasUsed` is the last
 * run's, with its list. Each run is reverted.
 */
export async function createAccessList(vm: VM, context: Block, request: CallRequest, gas: bigint): Promise<AccessListResult> {
  const excluded = await excludedAddresses(vm, request)
  let list: AccessList = request.accessList ?? []
  for (let run = 0; ; run++) {
    await vm.evm.journal.checkpoint()
    let result
    try {
      result = await runCall(vm, context, { ...request, accessList: list }, gas, { reportAccessList: true })
    } finally {
      await vm.evm.journal.revert()
    }
    const touched = normalize((result.accessList ?? []) as AccessList, excluded)
    if (sameList(touched, list) || run + 1 >= MAX_RUNS) {
      const failure = result.execResult.exceptionError
      // geth's key order.
      return {
        accessList: touched,
        ...(failure ? { error: gethExecutionError(failure.error) } : {}),
        gasUsed: bigIntToHex(result.totalGasSpent),
      }
    }
    list = touched
  }
}

async function excludedAddresses(vm: VM, request: CallRequest): Promise<Set<string>> {
  const from = request.from ? createAddressFromString(request.from) : createZeroAddress()
  const to = request.to
    ? request.to
    : createContractAddress(from, (await vm.stateManager.getAccount(from))?.nonce ?? 0n).toString()
  const excluded = new Set([from.toString(), to.toLowerCase()])
  for (const key of vm.evm.precompiles.keys()) excluded.add(`0x${key}`)
  return excluded
}

/** The touched addresses (the excluded ones only with slots), each slot as a 32-byte word, in the order touched. */
function normalize(list: AccessList, excluded: Set<string>): AccessList {
  return list
    .filter((entry) => entry.storageKeys.length > 0 || !excluded.has(entry.address.toLowerCase()))
    .map((entry) => ({
      address: entry.address.toLowerCase() as PrefixedHexString,
      storageKeys: entry.storageKeys.map((key) => `0x${key.slice(2).padStart(64, '0')}` as PrefixedHexString),
    }))
}

function sameList(a: AccessList, b: AccessList): boolean {
  const keys = (list: AccessList) => list.flatMap((entry) => [entry.address, ...entry.storageKeys.map((key) => `${entry.address}/${key}`)]).sort()
  const [x, y] = [keys(a), keys(b)]
  return x.length === y.length && x.every((key, i) => key === y[i])
}
