/** The playground's panels, in tab order: the first is what a newcomer sees. */
import type { Panel } from '../panel.ts'
import { accountsPanel } from './accounts.ts'
import { consolePanel } from './console.ts'
import { contractsPanel } from './contracts.ts'
import { explorerPanel } from './explorer.ts'
import { messagesPanel } from './messages.ts'
import { nodePanel } from './node.ts'
import { sendPanel } from './send.ts'
import { tracesPanel } from './traces.ts'

export const PANELS: readonly Panel[] = [accountsPanel, sendPanel, contractsPanel, explorerPanel, tracesPanel, messagesPanel, consolePanel, nodePanel]
