import { describe, expect, test } from 'vitest'
import { ether, exactEther } from '../../../../demo/playground/ui/format.ts'

const ETH = 10n ** 18n

describe('ether', () => {
  test('groups thousands: a 10,002 ETH balance reads as such', () => {
    expect(ether(10_002n * ETH)).toBe('10,002 ETH')
    expect(ether(10_002n * ETH + ETH / 2n)).toBe('10,002.5 ETH')
  })

  test('cuts past 6 decimals from 1 ETH up, never rounding up, and says so', () => {
    expect(ether(9_997_499_999_049_750_000_000n)).toBe('9,997.499999… ETH')
    expect(ether(9_999_999_999_999_999_999_999n)).toBe('9,999.999999… ETH')
  })

  test('keeps 6 significant digits below 1 ETH: a fee is not zero', () => {
    expect(ether(950_250_000_000n)).toBe('0.00000095025 ETH')
    expect(ether(1n)).toBe('0.000000000000000001 ETH')
    expect(ether(123_456_789_000_000n)).toBe('0.000123456… ETH')
  })

  test('zero, whole amounts, hex strings and negatives', () => {
    expect(ether(0n)).toBe('0 ETH')
    expect(ether('0xde0b6b3a7640000')).toBe('1 ETH')
    expect(ether(-ETH / 4n)).toBe('-0.25 ETH')
  })
})

describe('exactEther', () => {
  test('every decimal', () => {
    expect(exactEther(9_997_499_999_049_750_000_000n)).toBe('9,997.49999904975 ETH')
    expect(exactEther(10_002n * ETH + 1n)).toBe('10,002.000000000000000001 ETH')
    expect(exactEther(0n)).toBe('0 ETH')
  })
})
