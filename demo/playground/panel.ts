/**
 * What every panel of the playground is: a tab with a title, content built once the node is
 * ready, and a hook for being shown (with the rest of the URL hash: `#explorer/0xabc…` opens the
 * explorer on that hash).
 */
import type { Session } from './session.ts'

export interface Navigator {
  /** Shows a panel, passing it an argument (a hash, an address…), and updates the URL hash. */
  open(panel: string, argument?: string): void
}

export interface Panel {
  /** The URL hash and the test id suffix: `#accounts`, `tab-accounts`, `panel-accounts`. */
  readonly id: string
  readonly title: string
  /** Builds the panel into `root`; called once, after the node is ready. */
  mount(root: HTMLElement, session: Session, navigator: Navigator): void
  /** The panel became visible, or was opened again with an argument. */
  show?(argument: string | undefined): void
}
