import { ChainStoreError, InvalidParamsError } from '../errors.ts'
import type { ForkConfig } from '../config.ts'
import { ForkState, type ForkPoint } from './forkState.ts'
import { DEFAULT_UPSTREAM_POLICY, Upstream, type UpstreamPolicy } from './upstream.ts'

// What a reset that forks needs too, from the module both load on demand.
export { ForkState, Upstream }

/**
 * The fork a node starts with: the one its store holds (continued, the upstream not asked), or a
 * new one from the `fork` option, whose block (the upstream's head when not given) and chain id
 * (the upstream's when not given) are asked of the upstream once, in one batch, and pinned.
 */
export async function openFork(
  options: { fork?: ForkConfig; chainId?: number },
  stored: { chain: boolean; fork?: Iterable<[string, Uint8Array]> },
): Promise<ForkState | undefined> {
  const { fork } = options
  if (fork !== undefined) checkForkConfig(fork)
  const entries = stored.fork && [...stored.fork]
  const point = ForkState.pointOf(entries)
  if (point) {
    if (fork?.blockNumber !== undefined && BigInt(fork.blockNumber) !== point.blockNumber) {
      throw new ChainStoreError(
        `the stored chain forked ${new Upstream(point.url).host} at block ${point.blockNumber}, not ${fork.blockNumber}: omit the block number to continue it, or use another store`,
      )
    }
    // A URL given again replaces the stored one (a new API key, another endpoint of the chain).
    const url = fork?.url ?? point.url
    return new ForkState({ ...point, url }, new Upstream(url, upstreamPolicy(fork)), entries)
  }
  if (!fork) return undefined
  if (stored.chain) throw new ChainStoreError('the stored chain is not a fork: start without fork, or use another store')
  const upstream = new Upstream(fork.url, upstreamPolicy(fork))
  return new ForkState(await resolveForkPoint(upstream, fork, options.chainId), upstream)
}

/**
 * The fork point of `fork`: its block (number, hash, timestamp, base fee, and on a ZKsync upstream
 * its L1 batch) and chain id, as given or as the upstream says, asked in one batch.
 */
export async function resolveForkPoint(upstream: Upstream, fork: ForkConfig, chainId: number | undefined): Promise<ForkPoint> {
  const tag = fork.blockNumber === undefined ? 'latest' : `0x${BigInt(fork.blockNumber).toString(16)}`
  const [head, block, upstreamChainId] = await Promise.all([
    upstream.request<string>('eth_blockNumber', []),
    upstream.request<UpstreamBlock | null>('eth_getBlockByNumber', [tag, false]),
    chainId === undefined ? upstream.request<string>('eth_chainId', []) : undefined,
  ])
  if (!block) {
    throw new InvalidParamsError(`the fork block ${BigInt(fork.blockNumber!)} is past the head of the upstream ${upstream.host} (block ${BigInt(head)})`)
  }
  let l1Batch: bigint | undefined
  if (block.l1BatchNumber !== undefined) {
    // A ZKsync block whose batch is not sealed yet names none: it is the one after the last sealed.
    l1Batch = block.l1BatchNumber === null ? BigInt(await upstream.request<string>('zks_L1BatchNumber', [])) + 1n : BigInt(block.l1BatchNumber)
  }
  return {
    url: fork.url,
    blockNumber: BigInt(block.number),
    chainId: chainId ?? Number(BigInt(upstreamChainId!)),
    blockHash: block.hash,
    timestamp: BigInt(block.timestamp),
    baseFee: block.baseFeePerGas === undefined || block.baseFeePerGas === null ? undefined : BigInt(block.baseFeePerGas),
    l1Batch,
  }
}

/** The fields of an upstream block the fork point takes. */
interface UpstreamBlock {
  number: string
  hash: `0x${string}`
  timestamp: string
  baseFeePerGas?: string | null
  /** ZKsync's: null while the block's batch is not sealed; absent elsewhere. */
  l1BatchNumber?: string | null
}

/** Checks a fork option as resolveConfig checks the others: a mistake fails the start. */
export function checkForkConfig(fork: ForkConfig): void {
  if (typeof fork !== 'object' || fork === null) throw new TypeError(`fork must be an object with a url, got ${String(fork)}`)
  let protocol: string | undefined
  try {
    protocol = new URL(fork.url).protocol
  } catch {
    protocol = undefined
  }
  if (protocol !== 'http:' && protocol !== 'https:') throw new TypeError(`fork.url must be an http: or https: URL, got ${JSON.stringify(fork.url)}`)
  const { blockNumber, timeoutMs, retries } = fork
  if (blockNumber !== undefined && !((typeof blockNumber === 'bigint' && blockNumber >= 0n) || (Number.isSafeInteger(blockNumber) && Number(blockNumber) >= 0))) {
    throw new TypeError(`fork.blockNumber must be a block number (a non-negative integer), got ${String(blockNumber)}`)
  }
  if (timeoutMs !== undefined && !(Number.isFinite(timeoutMs) && timeoutMs > 0)) throw new TypeError(`fork.timeoutMs must be a positive number of milliseconds, got ${String(timeoutMs)}`)
  if (retries !== undefined && !(Number.isSafeInteger(retries) && retries >= 0)) throw new TypeError(`fork.retries must be a non-negative integer, got ${String(retries)}`)
}

function upstreamPolicy(fork: ForkConfig | undefined): UpstreamPolicy {
  return { ...DEFAULT_UPSTREAM_POLICY, timeoutMs: fork?.timeoutMs ?? DEFAULT_UPSTREAM_POLICY.timeoutMs, retries: fork?.retries ?? DEFAULT_UPSTREAM_POLICY.retries }
}
