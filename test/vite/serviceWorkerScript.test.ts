/**
 * The built service worker script: one classic, self-contained file (no import or export, so
 * it loads as a plain script at the site root) that attaches its listeners synchronously.
 */
import { runInNewContext, Script } from 'node:vm'
import { expect, test } from 'vitest'
import { HTTP_PROTOCOL } from '../../src/bridge/http.ts'
import { buildServiceWorkerScript, pagenodeVersion } from '../../scripts/build/serviceWorkerScript.ts'
import { VERSION } from '../../src/core/version.ts'

test('is a classic script that registers install, activate, message and fetch at once', async () => {
  const script = await buildServiceWorkerScript()
  expect(script.startsWith(`// pagenode service worker ${pagenodeVersion()}, protocol ${HTTP_PROTOCOL}.`)).toBe(true)
  // Parses as a classic script: an import or export statement would throw here.
  expect(() => new Script(script)).not.toThrow()
  // Node code of pagenode (the EVM, the store) must never end up in it.
  expect(script).not.toMatch(/ethereumjs|indexedDB|IndexedDbStore|createNode/)
  expect(script.length).toBeLessThan(30_000)

  const listeners: string[] = []
  const self = {
    location: new URL('http://127.0.0.1:4173/pagenode-sw.js?protocol=1&name=x&base=http%3A%2F%2F127.0.0.1%3A4173%2Frpc'),
    addEventListener: (type: string) => listeners.push(type),
  }
  // The globals a service worker has that the script reads as it starts (crypto: its request ids' prefix).
  runInNewContext(script, { self, URL, console, crypto })
  expect(listeners.sort()).toEqual(['activate', 'fetch', 'install', 'message'])
})

test("the version the node reports is the package's", () => {
  expect(VERSION).toBe(pagenodeVersion())
})
