/**
 * The sentence an ethereumjs error carries, without the dump of the transaction or block that
 * ethereumjs appends (`(tx type=… hash=… nonce=…)`, `-> block …`): users get the reason only.
 */
export function engineMessage(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error)
  return message.replace(/\s*\(tx type=.*$/s, '').replace(/\s*-> .*$/s, '').trim()
}
