/**
 * The sentence an ethereumjs error carries, without the dump of the transaction or block that
 * ethereumjs appends (`(vm hf=… -> block … -> tx …)`, `(tx type=… hash=…)`): users get the reason only.
 */
export function engineMessage(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error)
  return message.replace(/\s*\((?:vm hf=|tx type=|block number=).*$/s, '').replace(/\s*-> .*$/s, '').trim()
}
