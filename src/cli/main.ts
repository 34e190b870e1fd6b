import { VERSION } from '../core/index.ts'
import { HELP, parseCliArgs, UsageError } from './args.ts'
import { CliError } from './cliError.ts'

/** Exit codes: 0 done, 1 could not run (port, state file), 2 bad command line, 130 forced stop. */
const EXIT = { ok: 0, failed: 1, usage: 2, forced: 130 } as const

const SHUTDOWN_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const

/**
 * `pagenode [options]`: parse, start, serve until a signal, shut down cleanly. Every failure ends
 * in one line on stderr and a non-zero exit; a stack trace only with --verbose, and only for
 * what is a bug rather than a user's situation.
 */
async function main(argv: string[]): Promise<never> {
  let verbose = argv.includes('--verbose') || argv.includes('-v')
  const fail = (error: unknown): never => {
    if (error instanceof UsageError) {
      process.stderr.write(`pagenode: ${error.message}\nRun 'pagenode --help' for the options.\n`)
      process.exit(EXIT.usage)
    }
    if (error instanceof CliError) {
      process.stderr.write(`pagenode: ${error.message}\n`)
      process.exit(error.exitCode)
    }
    const detail = verbose && error instanceof Error && error.stack ? error.stack : String((error as Error)?.message ?? error)
    process.stderr.write(`pagenode: internal error: ${detail}\n`)
    process.exit(EXIT.failed)
  }
  process.on('uncaughtException', fail)
  process.on('unhandledRejection', fail)

  try {
    // A subcommand with its own arguments: the site's service worker script (src/vite/init.ts).
    if (argv[0] === 'init') {
      const { runInit } = await import('../vite/init.ts')
      process.exit(await runInit(argv.slice(1), { stdout: (text) => process.stdout.write(text), stderr: (text) => process.stderr.write(text) }))
    }
    const command = parseCliArgs(argv)
    if (command.kind === 'help') {
      process.stdout.write(HELP)
      process.exit(EXIT.ok)
    }
    if (command.kind === 'version') {
      process.stdout.write(`pagenode v${VERSION}\n`)
      process.exit(EXIT.ok)
    }
    verbose = command.options.verbose
    const shutdownRequested = untilSignal()
    // Loaded only now: --help, --version and bad flags answer without loading the EVM.
    const { startPagenode } = await import('./run.ts')
    const running = await startPagenode(command.options, {
      log: (line) => process.stdout.write(`${line}\n`),
      error: (text) => process.stderr.write(`${text}\n`),
    })
    process.stdout.write(`${running.banner}\n`)

    const signal = await shutdownRequested
    process.stdout.write(`\n${signal}: shutting down…\n`)
    // A second Ctrl-C does not wait: every acknowledged change is already in the state file's
    // log, only its compaction is skipped (the log is replayed at the next start).
    for (const again of SHUTDOWN_SIGNALS) {
      process.on(again, () => {
        process.stderr.write('pagenode: stopped without compacting the state file; nothing acknowledged is lost\n')
        process.exit(EXIT.forced)
      })
    }
    await running.stop()
    if (command.options.state !== undefined) process.stdout.write(`State saved to ${command.options.state}\n`)
    process.exit(EXIT.ok)
  } catch (error) {
    return fail(error)
  }
}

/** The first shutdown signal; listening starts at once so an early Ctrl-C is not lost. */
function untilSignal(): Promise<string> {
  return new Promise((resolve) => {
    const onSignal = (signal: string) => {
      for (const name of SHUTDOWN_SIGNALS) process.off(name, onSignal)
      resolve(signal)
    }
    for (const name of SHUTDOWN_SIGNALS) process.on(name, onSignal)
  })
}

await main(process.argv.slice(2))
