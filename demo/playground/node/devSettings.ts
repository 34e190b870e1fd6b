/**
 * The dev-node settings as the node runs them (pagenode_devSettings, docs/methods.md): the node
 * keeps them with its chain, so after a reload, a takeover or a change made from the RPC console
 * the panel shows what the node restored or was told, never a copy of its own.
 */
import type { Hex, Session } from '../session.ts'

export type MiningMode = 'auto' | 'interval' | 'manual'

export interface DevSettings {
  mining: { mode: MiningMode; intervalSeconds?: number }
  timeOffsetSeconds: number
  impersonatedAccounts: Hex[]
  autoImpersonate: boolean
  snapshots: { id: Hex; blockNumber: Hex; blockHash: Hex; takenAt: number }[]
}

export const readDevSettings = (session: Session): Promise<DevSettings> => session.request<DevSettings>('pagenode_devSettings')
