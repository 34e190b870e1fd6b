/**
 * A cold caller, as a user's script is one: a fresh process that creates a node and awaits its
 * transactions one by one, never waiting for anything else. Run by bench/node.ts in a child
 * process, with the signed transactions in the file named by argv[2]; prints the tx/s.
 */
import { readFileSync } from 'node:fs'
import { createNode } from '../src/core/index.ts'

const raws = JSON.parse(readFileSync(process.argv[2], 'utf8')) as string[]
const start = performance.now()
const node = await createNode()
for (const raw of raws) await node.request({ method: 'eth_sendRawTransaction', params: [raw] })
const seconds = (performance.now() - start) / 1000
await node.close()
console.log(JSON.stringify({ txPerSecond: raws.length / seconds }))
