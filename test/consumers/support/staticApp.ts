/**
 * A bundled consumer app run the way a static site is: built with its own `build.mjs`, given the
 * service worker script by `npx pagenode init <out>` (plus `initArgs`), its index.html copied next
 * to the bundle, served by a plain static server, opened in Chromium.
 */
import { copyFile } from 'node:fs/promises'
import { join } from 'node:path'
import { openConsumerPage, type PageReport } from './browser.ts'
import type { Consumer } from './consumer.ts'
import { serveStatic } from './staticServer.ts'

const servers: { close(): Promise<void> }[] = []

export async function buildAndOpen(app: Consumer, outDir: string, initArgs: string[] = []): Promise<PageReport> {
  await app.run('node', ['build.mjs'])
  await app.run('npx', ['--no', '--', 'pagenode', 'init', outDir, ...initArgs])
  await copyFile(join(app.dir, 'index.html'), join(app.dir, outDir, 'index.html'))
  const server = await serveStatic(join(app.dir, outDir))
  servers.push(server)
  return openConsumerPage(server.url)
}

export async function closeStaticServers(): Promise<void> {
  await Promise.all(servers.splice(0).map((server) => server.close()))
}
