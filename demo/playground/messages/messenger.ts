/**
 * ZKsync's L1Messenger system contract as a page sees it: where it lives, how a message is
 * encoded into `sendToL1(bytes)`, and how its L1MessageSent event reads back.
 */
import { decodeEventLog, encodeFunctionData, isHex, keccak256, parseAbi, stringToHex, toEventSelector, type Hex } from 'viem'

export const L1_MESSENGER: Hex = '0x0000000000000000000000000000000000008008'

export const L1_MESSENGER_ABI = parseAbi([
  'function sendToL1(bytes _message) returns (bytes32)',
  'event L1MessageSent(address indexed _sender, bytes32 indexed _hash, bytes _message)',
])

export const L1_MESSAGE_SENT_TOPIC: Hex = toEventSelector('L1MessageSent(address,bytes32,bytes)')

export type MessageKind = 'text' | 'hex'

/** The message's bytes from what the user typed: UTF-8 text, or 0x-hex of whole bytes. */
export function messageBytes(input: string, kind: MessageKind): Hex {
  if (kind === 'text') return stringToHex(input)
  const trimmed = input.trim()
  if (!isHex(trimmed, { strict: true }) || trimmed.length % 2 !== 0) {
    throw new Error('expected 0x followed by whole bytes of hex, e.g. 0x68656c6c6f')
  }
  return trimmed.toLowerCase() as Hex
}

export const sendToL1Data = (message: Hex): Hex => encodeFunctionData({ abi: L1_MESSENGER_ABI, functionName: 'sendToL1', args: [message] })

/** The message as text when it is printable UTF-8, else undefined (show its hex). */
export function messageText(message: Hex): string | undefined {
  if (message === '0x') return ''
  const bytes = new Uint8Array((message.length - 2) / 2).map((_, i) => parseInt(message.slice(2 + i * 2, 4 + i * 2), 16))
  try {
    const text = new TextDecoder('utf-8', { fatal: true }).decode(bytes)
    // eslint-disable-next-line no-control-regex
    return /[\u0000-\u0008\u000e-\u001f\u007f]/.test(text) ? undefined : text
  } catch {
    return undefined
  }
}

export interface RpcLog {
  address: Hex
  topics: Hex[]
  data: Hex
  blockNumber: Hex
  transactionHash: Hex
  transactionIndex: Hex
  logIndex: Hex
  l1BatchNumber?: Hex | null
}

export interface SentMessage {
  sender: Hex
  hash: Hex
  message: Hex
  /** keccak256(message) equals the event's indexed hash (it always should). */
  hashMatches: boolean
}

/** An L1MessageSent event decoded, or undefined for any other log. */
export function decodeMessageSent(log: RpcLog): SentMessage | undefined {
  if (log.address.toLowerCase() !== L1_MESSENGER || log.topics[0] !== L1_MESSAGE_SENT_TOPIC) return undefined
  const { args } = decodeEventLog({ abi: L1_MESSENGER_ABI, eventName: 'L1MessageSent', topics: log.topics as [Hex, ...Hex[]], data: log.data })
  return { sender: args._sender, hash: args._hash, message: args._message, hashMatches: keccak256(args._message) === args._hash }
}
