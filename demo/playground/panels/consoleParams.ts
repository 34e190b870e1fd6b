/** Parses the console's params field: a JSON array, or empty for `[]`; otherwise a message. */
export function parseParams(text: string): { params: unknown[] } | { error: string } {
  if (text.trim() === '') return { params: [] }
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (e) {
    return { error: `Params are not valid JSON: ${(e as Error).message}` }
  }
  if (!Array.isArray(value)) {
    return { error: 'Params must be a JSON array, e.g. ["latest", false].' }
  }
  return { params: value }
}
