/** How the playground writes chain values: ether amounts, shortened hashes, hex quantities. */
import { formatEther } from 'viem'

/** A hex quantity (as JSON-RPC returns it) as a bigint; undefined and null stay undefined. */
export const quantity = (hex: string | null | undefined): bigint | undefined => (hex === null || hex === undefined ? undefined : BigInt(hex))

/** Wei as ether with the unit: "9999.99 ETH" (up to 6 decimals, trailing zeros dropped). */
export function ether(wei: bigint | string): string {
  const value = typeof wei === 'string' ? BigInt(wei) : wei
  const [whole, fraction = ''] = formatEther(value).split('.')
  const shown = fraction.slice(0, 6).replace(/0+$/, '')
  const rounded = shown === '' && fraction !== '' && value !== 0n ? ' (<0.000001)' : ''
  return `${whole}${shown === '' ? '' : `.${shown}`} ETH${rounded}`
}

/** 0x1234…abcd: enough to tell hashes apart in a table; the full value goes in a title. */
export const shortHash = (hash: string, keep = 6): string => (hash.length <= 2 + keep * 2 ? hash : `${hash.slice(0, 2 + keep)}…${hash.slice(-keep)}`)

/** A unix timestamp (seconds, hex or bigint) as a local date and time. */
export const dateTime = (seconds: bigint | string): string => new Date(Number(typeof seconds === 'string' ? BigInt(seconds) : seconds) * 1000).toLocaleString()
