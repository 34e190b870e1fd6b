import { expect } from 'vitest'
import { RpcError } from '../../src/core/index.ts'

/**
 * Asserts that a request fails the way a caller sees it: an RpcError with this code and a
 * message equal to `message` (a string) or matching it (a RegExp).
 */
export async function expectRpcError(request: Promise<unknown>, code: number, message: string | RegExp): Promise<RpcError> {
  const error = await request.then(
    (result) => expect.unreachable(`expected an error ${code}, got ${JSON.stringify(result)}`),
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(RpcError)
  const rpcError = error as RpcError
  expect({ code: rpcError.code, message: rpcError.message }).toEqual({
    code,
    message: typeof message === 'string' ? message : expect.stringMatching(message),
  })
  return rpcError
}
