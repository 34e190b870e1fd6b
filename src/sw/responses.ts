/**
 * The service worker's adapter for the endpoint's HTTP answers (bridge/httpRules.ts, shared with
 * the CLI's server): a plain answer as a fetch Response.
 */
import type { HttpAnswer } from '../bridge/httpRules.ts'

export function toResponse({ status, headers, body }: HttpAnswer): Response {
  // A 204 has no body at all: the constructor refuses even an empty one.
  return new Response(status === 204 ? null : body, { status, headers })
}
