/**
 * Sending a transaction from a dev account (the node signs it) and waiting for its receipt: at
 * once under automine, at the next block otherwise (interval or manual mining), however long
 * that takes: the panel shows it as pending meanwhile.
 */
import type { Hex, Session } from '../session.ts'

export interface Receipt {
  transactionHash: Hex
  blockNumber: Hex
  status: Hex
  gasUsed: Hex
  contractAddress: Hex | null
  logs: { address: Hex; topics: Hex[]; data: Hex; logIndex: Hex }[]
  l2ToL1Logs?: unknown[]
  l1BatchNumber?: Hex | null
}

export interface TransactionRequest {
  from: Hex
  to?: Hex
  data: Hex
  value?: bigint
  /** A gas limit of our own: the node then sends without estimating (a transaction meant to fail). */
  gas?: bigint
}

/** Sends; resolves with the hash as soon as the node accepted it (rejects with its error). */
export function send(session: Session, request: TransactionRequest): Promise<Hex> {
  const { value, gas, ...rest } = request
  return session.request<Hex>('eth_sendTransaction', [{ ...rest, ...(value ? { value: `0x${value.toString(16)}` } : {}), ...(gas === undefined ? {} : { gas: `0x${gas.toString(16)}` }) }])
}

/** Resolves with the receipt once the transaction is mined, checking on every new head. */
export function waitForReceipt(session: Session, hash: Hex): Promise<Receipt> {
  return new Promise((resolve, reject) => {
    let settled = false
    let checking = false
    // A head that arrives during a check may be the block that mined it: check once more then.
    let again = false
    const check = async (): Promise<void> => {
      if (settled) return
      if (checking) {
        again = true
        return
      }
      checking = true
      try {
        const receipt = await session.request<Receipt | null>('eth_getTransactionReceipt', [hash])
        if (receipt && !settled) {
          settled = true
          stop()
          resolve(receipt)
        }
      } catch (error) {
        settled = true
        stop()
        reject(error)
      } finally {
        checking = false
      }
      if (again) {
        again = false
        await check()
      }
    }
    const stop = session.onHead(() => void check())
    void check()
  })
}
