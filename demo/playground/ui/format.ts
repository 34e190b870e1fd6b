/** How the playground writes chain values: ether amounts, shortened hashes, hex quantities. */
import { formatEther } from 'viem'

/** A hex quantity (as JSON-RPC returns it) as a bigint; undefined and null stay undefined. */
export const quantity = (hex: string | null | undefined): bigint | undefined => (hex === null || hex === undefined ? undefined : BigInt(hex))

const grouped = new Intl.NumberFormat('en-US')

/** Wei as ether in full: every decimal the value has, thousands grouped: "10,002.000000000000000001 ETH". */
export function exactEther(wei: bigint | string): string {
  const value = typeof wei === 'string' ? BigInt(wei) : wei
  const [whole, fraction] = etherDigits(value)
  return `${value < 0n ? '-' : ''}${grouped.format(BigInt(whole))}${fraction === '' ? '' : `.${fraction}`} ETH`
}

/**
 * Wei as ether for a table or a line of text: thousands grouped, up to 6 decimals for an amount of
 * 1 ETH or more, and 6 significant digits below that (a fee of 0.00000095025 ETH reads as such, not
 * as zero). Digits left out are cut, never rounded, and marked with "…": "9,997.499999… ETH".
 * `exactEther` (and `etherAmount`'s title and copy) give the rest.
 */
export function ether(wei: bigint | string): string {
  const value = typeof wei === 'string' ? BigInt(wei) : wei
  const [whole, fraction] = etherDigits(value)
  const firstDigit = fraction.search(/[1-9]/)
  const keep = whole !== '0' || firstDigit < 0 ? 6 : firstDigit + 6
  const shown = fraction.slice(0, keep).replace(/0+$/, '')
  const cut = fraction.length > keep ? '…' : ''
  return `${value < 0n ? '-' : ''}${grouped.format(BigInt(whole))}${shown === '' ? '' : `.${shown}`}${cut} ETH`
}

/** The whole and fractional digits of |wei| in ether, the fraction without trailing zeros. */
function etherDigits(value: bigint): [whole: string, fraction: string] {
  const [whole, fraction = ''] = formatEther(value < 0n ? -value : value).split('.')
  return [whole, fraction]
}

/** 0x1234…abcd: enough to tell hashes apart in a table; the full value goes in a title. */
export const shortHash = (hash: string, keep = 6): string => (hash.length <= 2 + keep * 2 ? hash : `${hash.slice(0, 2 + keep)}…${hash.slice(-keep)}`)

/** A unix timestamp (seconds, hex or bigint) as a local date and time. */
export const dateTime = (seconds: bigint | string): string => new Date(Number(typeof seconds === 'string' ? BigInt(seconds) : seconds) * 1000).toLocaleString()
