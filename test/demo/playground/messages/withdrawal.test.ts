import { expect, test } from 'vitest'
import { concat, encodeFunctionData, numberToHex, parseAbi, parseEther, type Hex } from 'viem'
import { createNode } from '../../../../src/core/node.ts'
import { decodeMessageSent, L1_MESSENGER, type RpcLog } from '../../../../demo/playground/messages/messenger.ts'
import { decodeWithdrawal, FINALIZE_ETH_WITHDRAWAL, L2_BASE_TOKEN, withdrawData } from '../../../../demo/playground/messages/withdrawal.ts'

const RECEIVER: Hex = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'

/** Sends a transaction on a fresh node and reads back the L1MessageSent events it emitted. */
async function messagesOf(transaction: Record<string, string>) {
  const node = await createNode({})
  const request = <T>(method: string, params: unknown[] = []) => node.request({ method, params }) as Promise<T>
  const [from] = await request<Hex[]>('eth_accounts')
  const hash = await request<Hex>('eth_sendTransaction', [{ from, ...transaction }])
  const receipt = await request<{ status: Hex; logs: RpcLog[] }>('eth_getTransactionReceipt', [hash])
  expect(receipt.status).toBe('0x1')
  return { from, messages: receipt.logs.map(decodeMessageSent).filter((m) => m !== undefined) }
}

test("the node's withdraw(l1Receiver) message reads back as a withdrawal of the value to the receiver", async () => {
  const { messages } = await messagesOf({ to: L2_BASE_TOKEN, value: numberToHex(parseEther('0.25')), data: withdrawData(RECEIVER) })
  expect(messages).toHaveLength(1)
  expect(messages[0].sender.toLowerCase()).toBe(L2_BASE_TOKEN)
  expect(decodeWithdrawal(messages[0].message, messages[0].sender)).toEqual({ selector: FINALIZE_ETH_WITHDRAWAL, l1Receiver: RECEIVER, amount: parseEther('0.25') })
})

test("withdrawWithMessage's message also names the sender and carries the data", async () => {
  const abi = parseAbi(['function withdrawWithMessage(address _l1Receiver, bytes _additionalData) payable'])
  const data = encodeFunctionData({ abi, functionName: 'withdrawWithMessage', args: [RECEIVER, '0xcafe'] })
  const { from, messages } = await messagesOf({ to: L2_BASE_TOKEN, value: '0x7', data })
  expect(decodeWithdrawal(messages[0].message, messages[0].sender)).toEqual({
    selector: FINALIZE_ETH_WITHDRAWAL,
    l1Receiver: RECEIVER,
    amount: 7n,
    sender: expect.stringMatching(new RegExp(`^${from}$`, 'i')),
    data: '0xcafe',
  })
})

test('the same bytes from anyone but the L2BaseToken, or other bytes from it, are not a withdrawal', () => {
  const bytes = concat([FINALIZE_ETH_WITHDRAWAL, RECEIVER, numberToHex(5n, { size: 32 })])
  expect(decodeWithdrawal(bytes, L2_BASE_TOKEN)).toMatchObject({ amount: 5n })
  expect(decodeWithdrawal(bytes, L1_MESSENGER)).toBeUndefined()
  expect(decodeWithdrawal(concat(['0x12345678', RECEIVER, numberToHex(5n, { size: 32 })]), L2_BASE_TOKEN)).toBeUndefined()
  // Too short for a withdrawal, and between a withdrawal and a withdrawal with a message.
  expect(decodeWithdrawal(concat([FINALIZE_ETH_WITHDRAWAL, RECEIVER]), L2_BASE_TOKEN)).toBeUndefined()
  expect(decodeWithdrawal(concat([bytes, '0x01']), L2_BASE_TOKEN)).toBeUndefined()
})
