/**
 * Loaded into the CLI's process by bench/cliMemory.ts (`--import`): on SIGUSR2 it collects
 * garbage three times and prints the process's memory on stderr as one `pagenode-memory {…}`
 * line, so the bench reads the server's heap without sharing its process.
 */
const collect = (globalThis as { gc?: () => void }).gc
if (!collect) throw new Error('bench/memoryProbe.ts needs --expose-gc')

process.on('SIGUSR2', () => {
  for (let i = 0; i < 3; i++) collect()
  const { heapUsed, arrayBuffers, rss } = process.memoryUsage()
  process.stderr.write(`pagenode-memory ${JSON.stringify({ heap: heapUsed, buffers: arrayBuffers, rss })}\n`)
})

export {}
