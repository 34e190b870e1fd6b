// The `pagenode/vite` entry for Node: pagenode ships TypeScript sources (there is no build step),
// and a Vite config loads its plugins in plain Node, so this registers tsx's loader first, as
// bin/pagenode.mjs does, namespaced to what is imported through it and with pagenode's tsconfig.
import { fileURLToPath } from 'node:url'
import { register } from 'tsx/esm/api'

const tsx = register({
  namespace: 'pagenode-vite',
  tsconfig: fileURLToPath(new URL('../../tsconfig.json', import.meta.url)),
})
const plugin = await tsx.import('./plugin.ts', import.meta.url)

export default plugin.default
export const buildServiceWorkerScript = plugin.buildServiceWorkerScript
