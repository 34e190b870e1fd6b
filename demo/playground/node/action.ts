/**
 * A Node-panel button's click: the button is disabled while the call runs (no double submits),
 * and a failure shows its JSON-RPC code in the section's own error area.
 */
import { failureView } from '../ui/errors.ts'

export function runAction(button: HTMLButtonElement, problem: HTMLElement, testid: string, work: () => Promise<unknown>): Promise<void> {
  button.disabled = true
  problem.replaceChildren()
  return work()
    .then(
      () => undefined,
      (error: unknown) => void problem.replaceChildren(failureView(error, testid)),
    )
    .finally(() => (button.disabled = false))
}
