#!/usr/bin/env node
// Compiles test/contracts/*.sol with the pinned solc npm package and writes
// test/contracts/artifacts.json ({Name: {abi, bytecode, deployedBytecode}}). The artifacts are
// committed so tests do not pay for the compiler; test/contracts/artifacts.test.ts recompiles
// and fails if they drift from the sources.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { compileContracts } from '../test/contracts/compile.mjs'

const dir = join(dirname(fileURLToPath(import.meta.url)), '..', 'test', 'contracts')
const sources = Object.fromEntries(
  readdirSync(dir)
    .filter((file) => file.endsWith('.sol'))
    .map((file) => [file, readFileSync(join(dir, file), 'utf8')]),
)
writeFileSync(join(dir, 'artifacts.json'), JSON.stringify(compileContracts(sources), null, 2) + '\n')
console.log(`compiled ${Object.keys(sources).join(', ')}`)
