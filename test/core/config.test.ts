import { describe, expect, test } from 'vitest'
import { DEFAULT_LIMITS, resolveConfig, resolveLimits } from '../../src/core/config.ts'

describe('limits', () => {
  test('the defaults, and those given over them', () => {
    expect(resolveConfig().limits).toEqual(DEFAULT_LIMITS)
    expect(resolveLimits({ maxLogResults: 50_000, evmTimeoutMs: 0 })).toEqual({ ...DEFAULT_LIMITS, maxLogResults: 50_000, evmTimeoutMs: 0 })
    expect(DEFAULT_LIMITS.evmTimeoutMs).toBe(5000) // geth's --rpc.evmtimeout
  })

  test.each([
    [{ maxLogResults: 0 }, 'limits.maxLogResults must be a positive integer, got 0'],
    [{ maxLogBlockRange: 1.5 }, 'limits.maxLogBlockRange must be a positive integer, got 1.5'],
    [{ maxFilters: '10' }, 'limits.maxFilters must be a positive integer, got 10'],
    [{ callGasCap: 1000 }, 'limits.callGasCap must be a positive bigint, got 1000'],
    [{ evmTimeoutMs: -1 }, 'limits.evmTimeoutMs must be a number of milliseconds (0 for no limit), got -1'],
    [{ maxLogs: 5 }, 'limits.maxLogs is not a limit; the limits are'],
  ])('%j is refused', (limits, message) => {
    expect(() => resolveLimits(limits as never)).toThrow(message)
  })
})
