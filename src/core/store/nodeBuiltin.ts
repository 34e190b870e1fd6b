/**
 * A Node.js built-in module, reached through `process.getBuiltinModule` so that no bundler sees
 * an import of it (the browser build carries none); undefined outside Node.js.
 */
export function nodeBuiltin<T>(id: string): T | undefined {
  const process = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process
  return process?.getBuiltinModule?.(id) as T | undefined
}
