import { dirname } from 'node:path'
import { createNode, DEFAULT_LIMITS, UpstreamError, type MiningConfig, type Pagenode } from '../core/index.ts'
import { CLI_DEFAULTS, type CliOptions } from './args.ts'
import { formatBanner } from './banner.ts'
import { CliError } from './cliError.ts'
import { formatConsoleLog } from './consoleLogOutput.ts'
import { formatInternalError } from './internalErrorLog.ts'
import { formatRequestLine } from './requestLog.ts'
import { accessPolicy } from './accessPolicy.ts'
import { RpcServer } from './rpcServer.ts'
import { FileStore, StateFileError } from './stateFile/fileStore.ts'

export interface Output {
  /** Standard output: the banner, the --verbose request log. */
  log(line: string): void
  /** Standard error: internal errors (bugs in pagenode) as they happen. */
  error(text: string): void
}

export interface RunningNode {
  node: Pagenode
  url: string
  /** The startup banner (accounts, keys, URL). */
  banner: string
  /** Stops accepting requests, finishes those in flight, closes the node and saves the state. */
  stop(): Promise<void>
}

/**
 * Starts a node behind the HTTP server. Every failure a user can cause (port in use, a state
 * file that cannot be used) is a CliError with a one-line message; nothing is left open then.
 */
export async function startPagenode(options: CliOptions, out: Output): Promise<RunningNode> {
  let store: FileStore | undefined
  let node: Pagenode | undefined
  const server = new RpcServer({
    maxRequestBytes: options.limits.maxRequestBytes ?? DEFAULT_LIMITS.maxRequestBytes,
    access: accessPolicy(options.allowHosts, options.allowOrigins),
    // The request log: --verbose turns it on at start, anvil_/hardhat_setLoggingEnabled at run time.
    onRequest: (record) => {
      if (node?.loggingEnabled ?? options.verbose) out.log(formatRequestLine(record))
    },
  })
  // The port first: failing there must not create or touch a state file.
  const address = await server.listen(options.host, options.port).catch((error: NodeJS.ErrnoException) => {
    throw listenError(error, options)
  })
  try {
    store = options.state === undefined ? undefined : await openStateFile(options.state, options.given.has('chain-id') ? options.chainId : undefined, options.stateRecover)
    node = await createNode({
      // A fork takes the upstream's chain id unless one is given (a stored fork, the one it took).
      chainId: options.fork && !options.given.has('chain-id') ? undefined : options.chainId,
      fork: options.fork,
      // Given on the command line, it wins over the mode a state file saved; else the saved one holds.
      mining: options.given.has('mining') ? options.mining : undefined,
      accounts: options.accounts,
      balance: options.balance,
      richWallets: options.richWallets,
      codeSizeLimit: options.codeSizeLimit,
      throwOnTransactionFailures: options.throwOnTransactionFailures,
      limits: options.limits,
      logging: options.verbose,
      store,
      // A bug in pagenode: one line, or with --verbose its params and the stacks of its causes.
      onInternalError: (error, call) => out.error(formatInternalError(error, call, options.verbose)),
    }).catch((error: unknown) => {
      // The fork's upstream failing at start is about the upstream, not the file.
      if (error instanceof UpstreamError) throw new CliError(`cannot fork: ${error.message}`)
      // With a state file, a node that cannot open is about the file (ChainStoreError & co.).
      if (options.state !== undefined) throw new CliError(`cannot use state file ${options.state}: ${(error as Error).message}`)
      throw error
    })
    // Always, as Hardhat and anvil print it: console.log is how a contract talks to its developer.
    node.on('consoleLog', (output) => out.log(formatConsoleLog(output)))
    server.attach(node)
    const running = node
    const url = `http://${options.host.includes(':') ? `[${options.host}]` : options.host}:${address.port}`
    const state = store && (await describeState(store, node))
    const banner = await formatBanner({ node, mining: await startedMining(node, options, store), url, state, notes: notes(options, store) })
    return {
      node,
      url,
      banner,
      async stop() {
        await server.close()
        try {
          // Waits for a block being stored, then the store compacts the state file.
          await running.close()
        } catch (error) {
          throw new CliError(
            `could not compact state file ${options.state}: ${(error as Error).message}; every acknowledged change is still in its log, replayed at the next start`,
          )
        }
      },
    }
  } catch (error) {
    // The node closes its store; without a node the store is closed here.
    await (node ? node.close() : store?.close())?.catch(() => {})
    await server.close(0)
    throw error
  }
}

/** `chainId`: the one given on the command line (undefined: the default, which a stored fork's own replaces). */
async function openStateFile(path: string, chainId: number | undefined, recover: boolean): Promise<FileStore> {
  let store: FileStore
  try {
    store = await FileStore.open(path, { recover })
  } catch (error) {
    throw stateFileError(error as NodeJS.ErrnoException, path)
  }
  // Checked here, before the node, to answer in terms of flags rather than of the core's config.
  const stored = await store.load()
  const expected = chainId ?? (stored?.fork ? undefined : CLI_DEFAULTS.chainId)
  if (stored && expected !== undefined && stored.meta.chainId !== expected) {
    await store.close()
    throw new CliError(
      `state file ${path} holds chain id ${stored.meta.chainId}, not ${expected}: start with --chain-id ${stored.meta.chainId}, or use another --state file`,
    )
  }
  return store
}

/** The mining mode the node runs in: the one given, or the one its state file saved. */
async function startedMining(node: Pagenode, options: CliOptions, store: FileStore | undefined): Promise<MiningConfig | undefined> {
  if (options.given.has('mining') || !store || store.opened.created) return options.mining
  if (await node.request({ method: 'anvil_getAutomine' })) return { mode: 'auto' }
  if (!(await node.request({ method: 'eth_mining' }))) return { mode: 'manual' }
  return undefined
}

async function describeState(store: FileStore, node: Pagenode): Promise<string> {
  const head = BigInt((await node.request({ method: 'eth_blockNumber' })) as string)
  return store.opened.created ? `${store.path} (new chain)` : `${store.path} (restored, head at block ${head})`
}

function notes(options: CliOptions, store: FileStore | undefined): string[] {
  const notes: string[] = []
  if (store && !store.opened.created && options.given.has('balance')) {
    notes.push('--balance only applies to a new chain: the balances in the state file are kept.')
  }
  const recovered = store?.opened.recovered
  if (recovered) {
    notes.push(
      `the state file was damaged (${recovered.damage}); started from the ${recovered.records} intact records before it. The original is kept as ${recovered.copy}.`,
    )
  }
  if (store?.opened.staleTemp) notes.push(`removed ${store.path}.tmp, left by a compaction that was interrupted (the state file itself is whole).`)
  if (store && store.opened.tornBytes > 0) {
    notes.push(
      `the state file ended in ${store.opened.tornBytes} bytes of a write that never finished (it was never acknowledged); they were dropped.`,
    )
  }
  return notes
}

function listenError(error: NodeJS.ErrnoException, { host, port }: CliOptions): CliError {
  switch (error.code) {
    case 'EADDRINUSE':
      return new CliError(`port ${port} on ${host} is already in use (another pagenode or anvil-zksync?): stop it or pick another with --port`)
    case 'EACCES':
      return new CliError(`not allowed to listen on port ${port} (ports below 1024 need privileges): pick another with --port`)
    case 'EADDRNOTAVAIL':
      return new CliError(`cannot listen on ${host}: it is not an address of this machine`)
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return new CliError(`cannot listen on ${host}: unknown host name`)
    default:
      return new CliError(`cannot listen on ${host}:${port}: ${error.message}`)
  }
}

function stateFileError(error: NodeJS.ErrnoException, path: string): CliError {
  if (error instanceof StateFileError) return new CliError(`cannot use state file ${path}: ${error.message}`)
  switch (error.code) {
    case 'ENOENT':
      return new CliError(`cannot create state file ${path}: the directory ${dirname(path)} does not exist`)
    case 'EACCES':
    case 'EPERM':
      return new CliError(`cannot use state file ${path}: permission denied`)
    case 'EISDIR':
      return new CliError(`cannot use state file ${path}: it is a directory`)
    default:
      return new CliError(`cannot use state file ${path}: ${error.message}`)
  }
}
