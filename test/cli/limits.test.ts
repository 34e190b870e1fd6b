/** The limits' flags, and the execution time limit as an HTTP client meets it. */
import { describe, expect, test } from 'vitest'
import { parseCliArgs, UsageError } from '../../src/cli/args.ts'
import { LIMIT_FLAGS } from '../../src/cli/limitFlags.ts'
import { DEFAULT_LIMITS } from '../../src/core/index.ts'
import { DEV } from '../support/chain.ts'
import { call, post, runCli, startCli } from '../support/cli.ts'

const LOOP = '0x5b600056'

const limitsOf = (argv: string[]) => {
  const command = parseCliArgs(argv)
  if (command.kind !== 'run') throw new Error('expected a run')
  return command.options.limits
}

describe('limit flags', () => {
  test('every limit has a flag', () => {
    expect(LIMIT_FLAGS.map(({ limit }) => limit).sort()).toEqual(Object.keys(DEFAULT_LIMITS).sort())
  })

  test('values: counts, gas, Go durations (as geth takes them)', () => {
    expect(limitsOf([])).toEqual({})
    expect(
      limitsOf([
        '--rpc.evmtimeout', '1m30s',
        '--rpc.gascap', '100000000',
        '--rpc.batch-request-limit', '5',
        '--max-request-bytes', '1000',
        '--max-log-block-range', '20000',
        '--max-log-results', '50000',
        '--max-filters', '7',
        '--filter-idle-timeout', '10s',
        '--max-trace-bytes', '4096',
        '--max-mine-blocks', '3',
      ]),
    ).toEqual({
      evmTimeoutMs: 90_000,
      callGasCap: 100_000_000n,
      maxBatchLength: 5,
      maxRequestBytes: 1000,
      maxLogBlockRange: 20_000,
      maxLogResults: 50_000,
      maxFilters: 7,
      filterIdleMs: 10_000,
      maxTraceBytes: 4096,
      maxMineBlocks: 3,
    })
    expect(limitsOf(['--rpc.evmtimeout', '0'])).toEqual({ evmTimeoutMs: 0 })
    expect(limitsOf(['--rpc.evmtimeout', '250ms'])).toEqual({ evmTimeoutMs: 250 })
  })

  test.each([
    [['--max-log-results', '0'], "--max-log-results must be a positive integer, got '0'"],
    [['--max-log-block-range', '1e3'], "--max-log-block-range must be a positive integer, got '1e3'"],
    [['--rpc.evmtimeout', '5'], "--rpc.evmtimeout must be a duration like 5s or 500ms (0 for no limit), got '5'"],
    [['--filter-idle-timeout', '0'], "--filter-idle-timeout must be a duration like 5s or 500ms, got '0'"],
    [['--rpc.gascap', '5e7'], "--rpc.gascap must be a positive amount of gas, got '5e7'"],
    [['--rpc.gascap', '-1'], "--rpc.gascap needs a value (a value starting with '-' is written --rpc.gascap=<value>)"],
  ])('%j is refused: %s', (argv, message) => {
    expect(() => parseCliArgs(argv)).toThrow(new UsageError(message))
  })

  test('a misspelt limit flag is named as it should be', () => {
    expect(() => parseCliArgs(['--rpc-evmtimeout', '1s'])).toThrow(new UsageError('unknown option --rpc-evmtimeout (did you mean --rpc.evmtimeout?)'))
    expect(() => parseCliArgs(['--maxLogResults', '5'])).toThrow(new UsageError('unknown option --maxLogResults (did you mean --max-log-results?)'))
  })

  test('--help lists them', async () => {
    const help = await runCli(['--help'])
    for (const { flag } of LIMIT_FLAGS) expect(help.stdout).toContain(`--${flag} `)
  })
})

describe('the limits over HTTP', () => {
  test('eth_getLogs range and results, the batch length and the request size follow the flags', async () => {
    const cli = await startCli(['--max-log-block-range', '2', '--max-log-results', '1', '--rpc.batch-request-limit', '2', '--max-request-bytes', '400'])
    const answer = async (body: unknown) => (await post(cli.url, body)).json()
    await call(cli.url, 'anvil_mine', '0x3')
    const range = await answer({ jsonrpc: '2.0', id: 1, method: 'eth_getLogs', params: [{ fromBlock: '0x0', toBlock: '0x3' }] })
    expect(range.error).toMatchObject({ code: -32005 })
    expect(range.error.message).toMatch(/range/)
    // Two transfers' worth of logs: none here (plain transfers log nothing), so results are checked with a
    // contract that logs: LOG0 twice per call.
    const logTwice = '0x60006000a060006000a0'
    const deploy = await call<string>(cli.url, 'eth_sendTransaction', { from: DEV[0].address, data: `0x600a600c600039600a6000f3${logTwice.slice(2)}`, gas: '0x100000' })
    const { contractAddress } = await call<{ contractAddress: string }>(cli.url, 'eth_getTransactionReceipt', deploy)
    await call(cli.url, 'eth_sendTransaction', { from: DEV[0].address, to: contractAddress, gas: '0x100000' })
    const results = await answer({ jsonrpc: '2.0', id: 1, method: 'eth_getLogs', params: [{ fromBlock: 'latest', toBlock: 'latest' }] })
    expect(results.error).toMatchObject({ code: -32005 })
    const batch = await answer([1, 2, 3].map((id) => ({ jsonrpc: '2.0', id, method: 'eth_chainId' })))
    expect(batch.error).toMatchObject({ code: -32600, message: 'batch too large: 3 calls, the limit is 2' })
    const big = await answer({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: ['x'.repeat(500)] })
    expect(big.error).toMatchObject({ code: -32600 })
  })

  test("a looping eth_call answers geth's timeout error, and a cheap request is answered while it runs", async () => {
    // A gas cap the loop cannot spend in 2 s: at 50,000,000 (12 gas a turn) an idle machine ran it out of gas first.
    const cli = await startCli(['--rpc.evmtimeout', '2s', '--rpc.gascap', '1000000000000'])
    const order: string[] = []
    const looping = post(cli.url, { jsonrpc: '2.0', id: 1, method: 'eth_call', params: [{ data: LOOP }, 'latest'] })
      .then((response) => response.json())
      .finally(() => order.push('loop'))
    // Sent once the loop runs (its first pause); answered before the loop ends, not after.
    await new Promise((resolve) => setTimeout(resolve, 300))
    expect(await call(cli.url, 'eth_blockNumber')).toBe('0x0')
    order.push('cheap')
    expect(await call(cli.url, 'eth_call', { data: '0x602a60005260206000f3' }, 'latest')).toBe(`0x${'00'.repeat(31)}2a`)
    order.push('cheap call')
    expect((await looping).error).toEqual({ code: -32000, message: 'execution aborted (timeout = 2s)' })
    expect(order).toEqual(['cheap', 'cheap call', 'loop'])
  })
})
