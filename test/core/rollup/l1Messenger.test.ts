import { readFileSync } from 'node:fs'
import { expect, test } from 'vitest'
import { L1_MESSAGE_SENT_TOPIC, L1_MESSENGER_RUNTIME } from '../../../src/core/rollup/l1Messenger.ts'
import { compileContracts } from '../../contracts/compile.mjs'
import { keccak256, toUtf8Bytes } from 'ethers'

test('the committed L1Messenger runtime is what the pinned solc makes of L1Messenger.sol', () => {
  const source = readFileSync(new URL('../../../src/core/rollup/L1Messenger.sol', import.meta.url), 'utf8')
  const { L1Messenger } = compileContracts({ 'L1Messenger.sol': source })
  // On a mismatch: paste the fresh deployedBytecode into src/core/rollup/l1Messenger.ts.
  expect(L1Messenger.deployedBytecode).toBe(L1_MESSENGER_RUNTIME)
}, 60_000)

test("the event topic is L1MessageSent's", () => {
  expect(L1_MESSAGE_SENT_TOPIC).toBe(keccak256(toUtf8Bytes('L1MessageSent(address,bytes32,bytes)')))
})
