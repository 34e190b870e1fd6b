/**
 * ETH withdrawals as the page sees them: ZKsync's L2BaseToken (0x…800a) `withdraw(l1Receiver)`
 * burns the value sent and sends L1 a message through the L1Messenger, the bytes L1's
 * `finalizeEthWithdrawal` reads: `abi.encodePacked(0x6c0960f9, l1Receiver, amount)`, and for
 * `withdrawWithMessage` also the sender and the extra data. Reading those bytes back is what lets
 * the messages panel call a message a withdrawal.
 */
import { encodeFunctionData, getAddress, hexToBigInt, parseAbi, sliceHex, type Hex } from 'viem'

export const L2_BASE_TOKEN: Hex = '0x000000000000000000000000000000000000800a'

const L2_BASE_TOKEN_ABI = parseAbi(['function withdraw(address _l1Receiver) payable'])

/** The selector of L1's `finalizeEthWithdrawal(...)`, which every withdrawal message starts with. */
export const FINALIZE_ETH_WITHDRAWAL: Hex = '0x6c0960f9'

export const withdrawData = (l1Receiver: Hex): Hex => encodeFunctionData({ abi: L2_BASE_TOKEN_ABI, functionName: 'withdraw', args: [l1Receiver] })

export interface WithdrawalMessage {
  selector: Hex
  l1Receiver: Hex
  amount: bigint
  /** Only in a `withdrawWithMessage` message: who withdrew, and the data for the receiver. */
  sender?: Hex
  data?: Hex
}

/** Selector (4) + receiver (20) + amount (32); withdrawWithMessage adds the sender (20) and data. */
const WITHDRAWAL_BYTES = 56
const WITH_MESSAGE_BYTES = WITHDRAWAL_BYTES + 20

/**
 * A message's bytes read as a withdrawal, or undefined when they are not one. Only the
 * L2BaseToken can send a withdrawal: a message with the same bytes from anyone else is just
 * bytes, so the caller passes who sent it.
 */
export function decodeWithdrawal(message: Hex, sender: Hex): WithdrawalMessage | undefined {
  if (sender.toLowerCase() !== L2_BASE_TOKEN) return undefined
  const length = (message.length - 2) / 2
  if (length < WITHDRAWAL_BYTES || sliceHex(message, 0, 4).toLowerCase() !== FINALIZE_ETH_WITHDRAWAL) return undefined
  if (length !== WITHDRAWAL_BYTES && length < WITH_MESSAGE_BYTES) return undefined
  const withdrawal: WithdrawalMessage = {
    selector: FINALIZE_ETH_WITHDRAWAL,
    l1Receiver: getAddress(sliceHex(message, 4, 24)),
    amount: hexToBigInt(sliceHex(message, 24, 56)),
  }
  if (length === WITHDRAWAL_BYTES) return withdrawal
  return { ...withdrawal, sender: getAddress(sliceHex(message, 56, 76)), data: length === WITH_MESSAGE_BYTES ? '0x' : sliceHex(message, 76) }
}
