import { bigIntToHex, bytesToBigInt, EthereumJSError, type Address, type PrefixedHexString } from '@ethereumjs/util'
import { bytesToHex } from '../hexText.ts'
import { runTx, type VM } from '@ethereumjs/vm'
import { runAsBootloader } from '../exec/bootloaderEntry.ts'
import type { Block } from '@ethereumjs/block'
import type { SignedTransaction } from '../exec/rawTransaction.ts'
import { engineMessage } from '../exec/engineMessage.ts'
import { TransactionRejectedError } from '../errors.ts'

/** A storage write of the detailed output (era's ApiStorageLog): slot and value as U256 quantities. */
export interface StorageWrite {
  address: PrefixedHexString
  key: PrefixedHexString
  writtenValue: PrefixedHexString
}

export interface SimulatedTransaction {
  storageLogs: StorageWrite[]
  events: { address: PrefixedHexString; topics: PrefixedHexString[]; data: PrefixedHexString }[]
}

/**
 * Runs a transaction as the next block would (on `vm`, in a sandbox the caller reverts) and
 * reports what it would write and emit: the storage slots it leaves changed, in the order it
 * first wrote them, and its events. Nonces are not checked (admission did that, and a queued
 * transaction's predecessors are not part of the state this sees).
 */
export async function simulateTransaction(vm: VM, context: Block, signed: SignedTransaction): Promise<SimulatedTransaction> {
  const sm = vm.stateManager
  const touched = new Map<string, { address: Address; key: Uint8Array; original: Uint8Array }>()
  const putStorage = sm.putStorage
  // Every SSTORE goes through putStorage; a write a revert undid ends up equal to its original.
  sm.putStorage = async (address, key, value) => {
    const id = `${address.toString()}:${bytesToHex(key)}`
    if (!touched.has(id)) touched.set(id, { address, key, original: await sm.getStorage(address, key) })
    return putStorage.call(sm, address, key, value)
  }
  let result
  try {
    result = await runAsBootloader(vm, context, signed, (tx) => runTx(vm, { tx, block: context, skipNonce: true, skipHardForkValidation: true }), {
      checkNonce: false,
    })
  } catch (error) {
    // runTx refuses a transaction with an EthereumJSError; anything else is no refusal (a bug).
    if (!(error instanceof EthereumJSError)) throw error
    throw new TransactionRejectedError(engineMessage(error), { cause: error })
  } finally {
    sm.putStorage = putStorage
  }
  const storageLogs: StorageWrite[] = []
  for (const { address, key, original } of touched.values()) {
    const written = bytesToBigInt(await sm.getStorage(address, key))
    if (written === bytesToBigInt(original)) continue
    storageLogs.push({ address: address.toString(), key: bigIntToHex(bytesToBigInt(key)), writtenValue: bigIntToHex(written) })
  }
  const events = result.receipt.logs.map(([address, topics, data]) => ({
    address: bytesToHex(address),
    topics: topics.map((topic) => bytesToHex(topic)),
    data: bytesToHex(data),
  }))
  return { storageLogs, events }
}
