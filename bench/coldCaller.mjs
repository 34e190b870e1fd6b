/**
 * A cold caller, as a user's script is one: a fresh process that imports the built package
 * (`pagenode/core`, dist/), creates a node and awaits its transactions one by one, never waiting
 * for anything else. Plain JavaScript, run by plain `node`: through tsx, every module the node
 * loads on first use (the WebAssembly crypto, its chunks) went through tsx's loader and its
 * transform, which users never pay (5–8% fewer tx/s, runs alternated on this VM). Run by
 * bench/node.ts in a child process once the package is built, with the signed transactions in the
 * file named by argv[2]; prints the tx/s.
 */
import { readFileSync } from 'node:fs'
import { createNode } from 'pagenode/core'

const raws = JSON.parse(readFileSync(process.argv[2], 'utf8'))
const start = performance.now()
const node = await createNode()
for (const raw of raws) await node.request({ method: 'eth_sendRawTransaction', params: [raw] })
const seconds = (performance.now() - start) / 1000
await node.close()
console.log(JSON.stringify({ txPerSecond: raws.length / seconds }))
