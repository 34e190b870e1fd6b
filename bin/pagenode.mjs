#!/usr/bin/env node
// The `pagenode` command: the compiled CLI (dist/cli/, built by `npm run build:package` and before
// every `npm pack`). In this repository, `npm run node` runs the TypeScript sources instead.
import '../dist/cli/main.js'
