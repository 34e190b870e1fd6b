/**
 * Raw transactions sent together have their senders recovered on two threads (the node worker
 * and its recovery helper, src/worker/senderRecovery.ts). What a page sees must not change: each
 * is admitted in the order it arrived, by the sender that signed it, and a refused one is refused
 * for its own reason.
 */
import { Wallet } from 'ethers'
import { expect, test } from 'vitest'
import { DEV, GAS_PRICE, rejection, signTransfer, start, uniqueName } from '../support/browser/nodes.ts'

interface Receipt {
  from: string
  status: string
  blockNumber: string
}

test('transactions sent together are mined in their order of arrival, each from its signer', async () => {
  const node = await start({ name: uniqueName('recovery'), persist: false })
  const send = (raw: string) => node.provider.request({ method: 'eth_sendRawTransaction', params: [raw] }) as Promise<string>
  const perBurst = 30
  const nonces = [0, 0]
  // Several bursts: the helper loads during the first and is used once ready.
  for (let burst = 0; burst < 4; burst++) {
    const raws = await Promise.all(Array.from({ length: perBurst }, (_, i) => signTransfer(i % 2, nonces[i % 2]++)))
    const hashes = await Promise.all(raws.map(send))
    const receipts = (await Promise.all(hashes.map((hash) => node.provider.request({ method: 'eth_getTransactionReceipt', params: [hash] })))) as Receipt[]
    receipts.forEach((receipt, i) => {
      expect(receipt.status).toBe('0x1')
      expect(receipt.from).toBe(DEV[i % 2].address)
    })
    // Automine: one block each, in the order the calls were made.
    const blocks = receipts.map((receipt) => Number(receipt.blockNumber))
    expect(blocks).toEqual([...blocks].sort((a, b) => a - b))
  }
  for (const who of [0, 1]) {
    const count = await node.provider.request({ method: 'eth_getTransactionCount', params: [DEV[who].address, 'latest'] })
    expect(Number(count)).toBe(nonces[who])
  }
})

test('a transaction refused among others sent with it is refused for its own reason; the others are mined', async () => {
  const node = await start({ name: uniqueName('recovery'), persist: false })
  const send = (raw: string) => node.provider.request({ method: 'eth_sendRawTransaction', params: [raw] }) as Promise<string>
  // Warm the helper with a burst first, so the refused one may well be recovered there.
  await Promise.all((await Promise.all(Array.from({ length: 20 }, (_, i) => signTransfer(0, i)))).map(send))
  const stranger = Wallet.createRandom()
  const unfunded = await stranger.signTransaction({ type: 2, chainId: 260, nonce: 0, to: DEV[3].address, value: 1n, gasLimit: 21_000n, maxFeePerGas: GAS_PRICE, maxPriorityFeePerGas: 0n })
  const raws = await Promise.all(Array.from({ length: 20 }, (_, i) => signTransfer(0, 20 + i)))
  raws.splice(12, 0, unfunded)
  const outcomes = await Promise.all(raws.map((raw) => send(raw).then(() => undefined, (error: unknown) => error)))
  outcomes.forEach((outcome, i) => {
    if (i !== 12) return expect(outcome).toBeUndefined()
    expect(outcome).toMatchObject({ code: -32000 })
    expect((outcome as Error).message).toContain(`insufficient funds for gas * price + value: address ${stranger.address.toLowerCase()}`)
  })
  await expect(rejection(send(raws[0]))).resolves.toMatchObject({ message: 'already known' })
})
