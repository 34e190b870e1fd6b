import { describe, expect, test } from 'vitest'
import { parseCliArgs, UsageError, type CliOptions } from '../../src/cli/args.ts'
import { expectNoStackTrace, runCli } from '../support/cli.ts'

function options(argv: string[]): CliOptions {
  const command = parseCliArgs(argv)
  if (command.kind !== 'run') throw new Error(`expected a run command, got ${command.kind}`)
  return command.options
}

function usageError(argv: string[]): string {
  try {
    parseCliArgs(argv)
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError)
    return (error as Error).message
  }
  throw new Error(`${argv.join(' ')} was accepted`)
}

describe('flags', () => {
  test('defaults: 127.0.0.1:8011, chain 260, automine, 10 accounts of 10,000 ETH, memory only', () => {
    const { given, ...defaults } = options([])
    expect(defaults).toEqual({
      host: '127.0.0.1',
      port: 8011,
      chainId: 260,
      mining: { mode: 'auto' },
      state: undefined,
      stateRecover: false,
      accounts: 10,
      balance: 10_000n * 10n ** 18n,
      richWallets: true,
      codeSizeLimit: 24_576,
      throwOnTransactionFailures: false,
      allowHosts: [],
      allowOrigins: [],
      limits: {},
      verbose: false,
    })
    expect(given.size).toBe(0)
  })

  test('every flag, in both spellings where there are two', () => {
    const parsed = options([
      '--host', '0.0.0.0', '-p', '8545', '--chain-id', '0x10e', '--mining', 'interval=250',
      '--state', 'chain.state', '--state-recover', '-a', '3', '--balance', '0.5', '-v',
    ])
    expect(parsed).toMatchObject({
      host: '0.0.0.0',
      port: 8545,
      chainId: 270,
      mining: { mode: 'interval', intervalMs: 250 },
      state: 'chain.state',
      stateRecover: true,
      accounts: 3,
      balance: 5n * 10n ** 17n,
      verbose: true,
    })
    expect([...parsed.given].sort()).toEqual(['accounts', 'balance', 'chain-id', 'host', 'mining', 'port', 'state', 'state-recover', 'verbose'])
    expect(options(['--mining', 'manual', '--chain-id', '324', '--port=0']).mining).toEqual({ mode: 'manual' })
    expect(options(['--chain-id', '324']).chainId).toBe(324)
    expect(options(['--balance', '1.000000000000000001']).balance).toBe(10n ** 18n + 1n)
    expect(options(['--no-rich-wallets']).richWallets).toBe(false)
  })

  test("the contract size limit, as anvil's flags set it", () => {
    expect(options(['--code-size-limit', '50000']).codeSizeLimit).toBe(50_000)
    expect(options(['--disable-code-size-limit']).codeSizeLimit).toBe(false)
    expect(options(['--throw-on-transaction-failures']).throwOnTransactionFailures).toBe(true)
    expect(() => options(['--code-size-limit', '0'])).toThrow("--code-size-limit must be a positive number of bytes, got '0'")
    expect(() => options(['--code-size-limit', '24k'])).toThrow("--code-size-limit must be a positive number of bytes, got '24k'")
    expect(() => options(['--code-size-limit', '1', '--disable-code-size-limit'])).toThrow('exclude each other')
  })

  test('who may call: --allow-origin (origins, or *) and --allow-host, each repeatable', () => {
    const parsed = options(['--allow-origin', 'https://dapp.example/', '--allow-origin', 'http://192.168.1.5:3000', '--allow-host', 'devbox.lan'])
    expect(parsed.allowOrigins).toEqual(['https://dapp.example', 'http://192.168.1.5:3000'])
    expect(parsed.allowHosts).toEqual(['devbox.lan'])
    expect(options(['--allow-origin', '*']).allowOrigins).toEqual(['*'])
    expect(() => options(['--allow-origin', 'dapp.example'])).toThrow("--allow-origin must be an origin like http://localhost:3000 (or '*'), got 'dapp.example'")
    expect(() => options(['--allow-origin', 'https://dapp.example/app'])).toThrow('no path')
  })

  test('--help and --version win over everything else', () => {
    expect(parseCliArgs(['--port', '1', '--help'])).toEqual({ kind: 'help' })
    expect(parseCliArgs(['-V'])).toEqual({ kind: 'version' })
  })

  test.each([
    [['--chainId', '5'], 'unknown option --chainId (did you mean --chain-id?)'],
    [['--frobnicate'], 'unknown option --frobnicate'],
    [['-x'], 'unknown option -x'],
    [['serve'], "unexpected argument 'serve': every option is a --flag"],
    [['--port'], '--port needs a value'],
    [['--port', '--verbose'], "--port needs a value (a value starting with '-' is written --port=<value>)"],
    [['--verbose=yes'], '--verbose does not take a value'],
    [['--port', '65536'], "--port must be a number from 0 to 65535, got '65536'"],
    [['--port', '80a'], "--port must be a number from 0 to 65535, got '80a'"],
    [['--port='], "--port must be a number from 0 to 65535, got ''"],
    [['--chain-id', '0'], "--chain-id must be a positive integer (decimal or 0x-hex), got '0'"],
    [['--chain-id', '1.5'], "--chain-id must be a positive integer (decimal or 0x-hex), got '1.5'"],
    [['--chain-id', '9007199254740992'], "--chain-id must be a positive integer (decimal or 0x-hex), got '9007199254740992'"],
    [['--mining', 'sometimes'], "--mining must be auto, manual or interval=<ms> (e.g. interval=1000), got 'sometimes'"],
    [['--mining', 'interval=0'], "--mining must be auto, manual or interval=<ms> (e.g. interval=1000), got 'interval=0'"],
    [['--mining', 'interval'], "--mining must be auto, manual or interval=<ms> (e.g. interval=1000), got 'interval'"],
    [['--accounts', '1001'], "--accounts must be a number from 0 to 1000, got '1001'"],
    [['--balance', '-1'], "--balance needs a value (a value starting with '-' is written --balance=<value>)"],
    [['--balance', '1e3'], "--balance must be an amount of ETH like 10000 or 0.5 (at most 18 decimals), got '1e3'"],
    [['--balance', '0.0000000000000000001'], "--balance must be an amount of ETH like 10000 or 0.5 (at most 18 decimals), got '0.0000000000000000001'"],
    [['--state', ''], '--state needs a file name'],
    [['--host', ''], '--host needs an address, e.g. 127.0.0.1 or 0.0.0.0'],
  ])('%j is refused: %s', (argv, message) => {
    expect(usageError(argv)).toBe(message)
  })
})

describe('the command', () => {
  test('a bad flag: one line naming it, a pointer to --help, exit code 2, no stack trace', async () => {
    const bad = await Promise.all([
      runCli(['--frobnicate']),
      runCli(['--port', 'eighty']),
      runCli(['--mining', 'fast']),
    ])
    expect(bad.map((exit) => exit.code)).toEqual([2, 2, 2])
    expect(bad.map((exit) => exit.stderr)).toEqual([
      "pagenode: unknown option --frobnicate\nRun 'pagenode --help' for the options.\n",
      "pagenode: --port must be a number from 0 to 65535, got 'eighty'\nRun 'pagenode --help' for the options.\n",
      "pagenode: --mining must be auto, manual or interval=<ms> (e.g. interval=1000), got 'fast'\nRun 'pagenode --help' for the options.\n",
    ])
    for (const exit of bad) {
      expect(exit.stdout).toBe('')
      expectNoStackTrace(exit.stderr)
    }
  })

  test('--help lists every flag and exits 0; --version prints the version', async () => {
    const [help, version] = await Promise.all([runCli(['--help']), runCli(['--version'])])
    expect(help.code).toBe(0)
    for (const flag of ['--host', '--port', '--chain-id', '--mining', '--state', '--accounts', '--balance', '--verbose', '--help', '--version']) {
      expect(help.stdout).toContain(flag)
    }
    expect(version).toMatchObject({ code: 0, stdout: expect.stringMatching(/^pagenode v\d+\.\d+\.\d+\n$/) })
  })
})
