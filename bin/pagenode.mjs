#!/usr/bin/env node
// The `pagenode` command. pagenode runs its TypeScript sources directly (there is no build step),
// so this registers tsx's loader first. The registration is namespaced: it compiles only the
// modules imported through it (the CLI and the core), with pagenode's own tsconfig rather than
// whatever tsconfig.json sits in the directory the command is run from.
import { fileURLToPath } from 'node:url'
import { register } from 'tsx/esm/api'

const tsx = register({
  namespace: 'pagenode',
  tsconfig: fileURLToPath(new URL('../tsconfig.json', import.meta.url)),
})
await tsx.import('../src/cli/main.ts', import.meta.url)
