/**
 * What went wrong in a viem call, as the dApp shows it: the JSON-RPC code the node answered (the
 * innermost error that carries one) and the revert reason or viem's short message.
 */
import { BaseError, ContractFunctionRevertedError } from 'viem'

export interface Failure {
  code?: number
  message: string
}

export function describeFailure(error: unknown): Failure {
  if (!(error instanceof BaseError)) return { message: error instanceof Error ? error.message : String(error) }
  let code: number | undefined
  error.walk((cause) => {
    const candidate = (cause as { code?: unknown }).code
    if (typeof candidate === 'number') code = candidate
    return false
  })
  const revert = error.walk((cause) => cause instanceof ContractFunctionRevertedError) as ContractFunctionRevertedError | null
  const reason = revert?.reason ?? revert?.data?.errorName
  return { ...(code === undefined ? {} : { code }), message: reason ? `reverted: ${reason}` : error.shortMessage }
}

export function failureText(error: unknown): string {
  const { code, message } = describeFailure(error)
  return code === undefined ? `error: ${message}` : `error ${code}: ${message}`
}
