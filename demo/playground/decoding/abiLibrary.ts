/**
 * Every ABI the playground has: those it compiled (by contract name), those of addresses
 * (deployed from the Contracts panel, or pasted in the explorer for any address), kept in
 * IndexedDB so decoding survives a reload, and the well-known signatures. Reads are synchronous
 * from memory (views decode as they render); `load` fills memory once at start.
 */
import { openDB, type IDBPDatabase } from 'idb'
import type { Abi } from 'viem'
import type { NamedAbi } from './decode.ts'
import { WELL_KNOWN } from './wellKnown.ts'

interface AbiRecord {
  /** `compiled:<name>` or `address:<0x… lowercase>` */
  key: string
  name: string
  abi: Abi
}

const DATABASE = 'pagenode-playground-abis'
const STORE = 'abis'

class AbiLibrary {
  private readonly records = new Map<string, AbiRecord>()
  private database: Promise<IDBPDatabase | undefined> | undefined

  /** Reads what earlier visits kept; without IndexedDB the library lives in memory only. */
  async load(): Promise<void> {
    const database = await this.open()
    if (!database) return
    for (const record of (await database.getAll(STORE)) as AbiRecord[]) this.records.set(record.key, record)
  }

  /** The ABIs to decode something at `address` with: its own first, then every compiled one, then the well-known. */
  abisFor(address?: string | null): NamedAbi[] {
    const own = address ? this.records.get(`address:${address.toLowerCase()}`) : undefined
    const compiled = [...this.records.values()].filter((record) => record.key.startsWith('compiled:'))
    return [...(own ? [own] : []), ...compiled, ...WELL_KNOWN]
  }

  /** The name given to an address's ABI, if it has one. */
  nameOf(address: string): string | undefined {
    return this.records.get(`address:${address.toLowerCase()}`)?.name
  }

  addCompiled(contracts: readonly { name: string; abi: Abi }[]): Promise<void> {
    return this.put(contracts.filter((contract) => contract.abi.length > 0).map((contract) => ({ key: `compiled:${contract.name}`, name: contract.name, abi: contract.abi })))
  }

  attach(address: string, name: string, abi: Abi): Promise<void> {
    return this.put([{ key: `address:${address.toLowerCase()}`, name, abi }])
  }

  private async put(records: AbiRecord[]): Promise<void> {
    for (const record of records) this.records.set(record.key, record)
    const database = await this.open()
    if (!database) return
    const transaction = database.transaction(STORE, 'readwrite')
    await Promise.all([...records.map((record) => transaction.store.put(record)), transaction.done])
  }

  private open(): Promise<IDBPDatabase | undefined> {
    this.database ??= openDB(DATABASE, 1, {
      upgrade(database) {
        database.createObjectStore(STORE, { keyPath: 'key' })
      },
    }).catch((error: unknown) => {
      console.warn('ABIs are kept in memory only:', error)
      return undefined
    })
    return this.database
  }
}

/** The page's one library: every panel decodes with the same ABIs. */
export const abiLibrary = new AbiLibrary()
