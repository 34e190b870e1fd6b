/**
 * The chain-size bench's workload (issue 21), shared by its Node.js half (chainSizesNode.ts) and
 * its Chromium half (the page, browser/main.ts): a chain of ERC-20 transfers, one (one log) per
 * block after the token's deployment in block 1, grown to a size, then measured there. No Node.js
 * or DOM imports: it runs in both.
 */
export type Request = (method: string, params?: unknown[]) => Promise<unknown>

export interface SizeFigures {
  /** Per transfer, the 1,000 sent one by one that end at this size: median and mean (ms). */
  medianMs: number
  meanMs: number
  /** eth_call (the token's balanceOf) and eth_getBalance at latest, p50 (ms). */
  callP50: number
  balanceP50: number
  /** eth_getLogs by the token's address over the last 1,000 blocks, p50 (ms), and the logs found. */
  logsP50: number
  logs: number
  /** Transfers per second while growing to this size (50 in flight). */
  growTxPerSecond: number
}

export interface SizeReading extends SizeFigures {
  size: number
  [figure: string]: number
}

/** Transfers measured one by one at each size (the last of the growth). */
export const MEASURED = 1000
/** Blocks the eth_getLogs window spans. */
export const LOG_WINDOW = 1000

/** Sends `raws` keeping `inFlight` outstanding. */
export async function sendAll(request: Request, raws: string[], inFlight: number): Promise<void> {
  let next = 0
  const lane = async () => {
    while (next < raws.length) await request('eth_sendRawTransaction', [raws[next++]])
  }
  await Promise.all(Array.from({ length: Math.min(inFlight, raws.length) }, lane))
}

/**
 * Grows the chain from `head` to `size` blocks with `raws` (transfer i lands in block i + 2) and
 * measures it there. Returns the figures; the caller reads memory.
 */
export async function growAndMeasure(request: Request, raws: string[], size: number, tokenAddress: string, balanceOfCall: unknown[], from: string): Promise<SizeFigures> {
  const head = Number(await request('eth_blockNumber'))
  // At the smallest size, the chain starts at block 1: all but its first block are measured.
  const measuredFrom = Math.max(head, size - MEASURED)
  const growStart = performance.now()
  // raws[i] is mined in block i + 2: the next to send is head - 1.
  await sendAll(request, raws.slice(head - 1, measuredFrom - 1), 50)
  const grown = Math.max(1, measuredFrom - head)
  const growTxPerSecond = (grown / (performance.now() - growStart)) * 1000
  const times: number[] = []
  for (const raw of raws.slice(measuredFrom - 1, size - 1)) {
    const start = performance.now()
    await request('eth_sendRawTransaction', [raw])
    times.push(performance.now() - start)
  }
  const logsFilter = { fromBlock: `0x${(size - LOG_WINDOW + 1).toString(16)}`, toBlock: `0x${size.toString(16)}`, address: tokenAddress }
  const logs = (await request('eth_getLogs', [logsFilter])) as unknown[]
  return {
    medianMs: median(times),
    meanMs: times.reduce((a, b) => a + b, 0) / times.length,
    callP50: median(await sample(300, () => request('eth_call', balanceOfCall))),
    balanceP50: median(await sample(300, () => request('eth_getBalance', [from, 'latest']))),
    logsP50: median(await sample(10, () => request('eth_getLogs', [logsFilter]))),
    logs: logs.length,
    growTxPerSecond,
  }
}

async function sample(count: number, work: () => Promise<unknown>): Promise<number[]> {
  const out: number[] = []
  for (let i = 0; i < count; i++) {
    const start = performance.now()
    await work()
    out.push(performance.now() - start)
  }
  return out
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)]
}
