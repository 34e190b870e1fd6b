import type { IncomingMessage } from 'node:http'
import type { HeaderOf } from '../bridge/httpRules.ts'

/** A Node request's headers as the shared HTTP rules read them (repeated ones joined). */
export function headerOf(request: IncomingMessage): HeaderOf {
  return (name) => {
    const value = request.headers[name]
    return Array.isArray(value) ? value.join(', ') : value
  }
}
