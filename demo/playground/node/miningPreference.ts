/**
 * The mining mode chosen in the Node panel, kept in this browser (localStorage) so that a reload
 * does not silently go back to automine. The node's own state wins when it has one: the page
 * re-applies its choice only where the node, just loaded, runs another mode.
 */
export type MiningMode = 'auto' | 'interval' | 'manual'

export interface MiningPreference {
  mode: MiningMode
  /** The interval's length, kept whatever the mode, so the field shows it again. */
  seconds: number
}

const KEY = 'pagenode.playground.mining'

export function readMiningPreference(): MiningPreference | undefined {
  try {
    const stored = JSON.parse(localStorage.getItem(KEY) ?? 'null') as Partial<MiningPreference> | null
    if (!stored || !['auto', 'interval', 'manual'].includes(stored.mode as string)) return undefined
    const seconds = Number(stored.seconds)
    return { mode: stored.mode as MiningMode, seconds: Number.isSafeInteger(seconds) && seconds >= 1 ? seconds : 5 }
  } catch {
    return undefined
  }
}

export function saveMiningPreference(preference: MiningPreference): void {
  try {
    localStorage.setItem(KEY, JSON.stringify(preference))
  } catch {
    // Storage full or refused: the choice lasts until the reload, as before.
  }
}
