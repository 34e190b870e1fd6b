/**
 * Which console.log lines belong to what the page just did. A mined transaction's lines are kept
 * by the node (`pagenode_consoleLogs`); a call's are told once, in the provider's `consoleLog`
 * event (docs/api.md, "console.log output"), so they are gathered while the call runs.
 */
import type { ProviderEvents } from '../../../src/client/index.ts'
import type { Hex, Session } from '../session.ts'

/** The lines a mined transaction printed; none when the node does not have them (best effort). */
export async function transactionLines(session: Session, hash: Hex): Promise<string[]> {
  try {
    return (await session.request<string[] | null>('pagenode_consoleLogs', [hash])) ?? []
  } catch {
    return []
  }
}

/**
 * Runs an `eth_call` through `call` and gathers the lines it printed, whether it returned or
 * reverted (a frame that reverts prints all the same). The node tells them before it answers,
 * but on the worker's event channel, not the answer's port: a ping on that port, answered after
 * the worker posted the event, lets the event arrive first. The event does not say which call
 * printed: another `eth_call` running at the same moment (another tab, the RPC console) would be
 * counted too.
 */
export async function callWithLines<T>(session: Session, call: () => Promise<T>): Promise<{ outcome: PromiseSettledResult<T>; lines: string[] }> {
  const lines: string[] = []
  const listener: ProviderEvents['consoleLog'] = (output) => {
    if (output.kind === 'call' && output.method === 'eth_call') lines.push(...output.lines)
  }
  session.provider.on('consoleLog', listener)
  try {
    const [outcome] = await Promise.allSettled([call()])
    await session.node.ping().catch(() => undefined)
    return { outcome, lines }
  } finally {
    session.provider.removeListener('consoleLog', listener)
  }
}
