import { expect } from 'vitest'

/** What a failed request showed its caller: code and message, and data when it carried some. */
export async function failure(promise: Promise<unknown>): Promise<{ code: number; message: string; data?: unknown }> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(error, 'expected the request to fail').toBeDefined()
  const { code, message, data } = error as { code: number; message: string; data?: unknown }
  return data === undefined ? { code, message } : { code, message, data }
}
