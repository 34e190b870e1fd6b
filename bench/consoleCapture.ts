/**
 * What listening for console.log costs a transaction that makes no console call
 * (src/core/exec/console/capture.ts): every mined transaction runs inside captureConsole, which
 * attaches a `beforeMessage` listener for the run and compares each call frame's target with the
 * console address. Times one frame's event emission bare and inside captureConsole, per
 * transaction, on a real ethereumjs VM. Not part of `npm run bench`:
 *
 *   npx tsx bench/consoleCapture.ts
 */
import { createAddressFromString } from '@ethereumjs/util'
import { createVM } from '@ethereumjs/vm'
import { captureConsole } from '../src/core/exec/console/capture.ts'

const vm = await createVM()
// ethereumjs' own emitter: what runCall awaits once per frame (a transfer is one frame).
const emit = (vm.evm as unknown as { _emit(topic: string, data: unknown): Promise<void> })._emit
const frame = { to: createAddressFromString(`0x${'11'.repeat(20)}`), data: new Uint8Array(68) }
const run = () => emit('beforeMessage', frame)
const N = 200_000

for (let round = 0; round < 5; round++) {
  let started = performance.now()
  for (let i = 0; i < N; i++) await run()
  const bare = ((performance.now() - started) / N) * 1000
  started = performance.now()
  for (let i = 0; i < N; i++) await captureConsole(vm, run)
  const captured = ((performance.now() - started) / N) * 1000
  console.log(`per transaction: ${bare.toFixed(2)} µs bare, ${captured.toFixed(2)} µs captured: +${(captured - bare).toFixed(2)} µs`)
}
