import { expect, test } from 'vitest'
import { keccak256, stringToHex, type Hex } from 'viem'
import { createNode } from '../../../../src/core/node.ts'
import { L1_MESSENGER, messageBytes, messageText, sendToL1Data } from '../../../../demo/playground/messages/messenger.ts'
import { batchRootFromLeaves, EMPTY_LEAF, leafHash, logsTreeRoot, proofLayout, walkPath } from '../../../../demo/playground/messages/proof.ts'
import { messageState, type Request } from '../../../../demo/playground/messages/status.ts'

async function chain(options: Parameters<typeof createNode>[0]) {
  const node = await createNode(options)
  const request: Request = (method, params = []) => node.request({ method, params }) as never
  const accounts = await request<Hex[]>('eth_accounts')
  const send = (from: number, text: string) =>
    request<Hex>('eth_sendTransaction', [{ from: accounts[from], to: L1_MESSENGER, data: sendToL1Data(stringToHex(text)) }])
  return { node, request, send }
}

test('the empty leaf and empty tree match the reference constants', () => {
  expect(EMPTY_LEAF).toBe('0x72abee45b59e344af8a6e520241c4744aff26ed411f4c4b00f8af09adada43ba')
  expect(logsTreeRoot([])).toBe('0x375a5bf909cb02143e3695ca658e0641e739aa590f0004dba93572c44cdb9d2d')
})

test('proofs of several messages in one multi-block batch verify in the page, and the batch root is rebuilt', async () => {
  const { node, request, send } = await chain({ mining: { mode: 'manual' }, batches: { maxBlocks: 2 } })
  const first = [await send(0, 'one'), await send(1, 'two'), await send(2, 'three')]
  await request('evm_mine')
  // The batch is open: the page must say it waits, with no proof.
  const open = await messageState(request, first[1])
  expect(open).toMatchObject({ stage: 'mined', sealed: false, batch: 1 })
  const pending = await send(3, 'four')
  expect(await messageState(request, pending)).toMatchObject({ stage: 'pending' })
  await request('evm_mine')
  for (const hash of [...first, pending]) {
    const state = await messageState(request, hash)
    if (state.stage !== 'mined' || !state.sealed) throw new Error(`not sealed: ${JSON.stringify(state)}`)
    expect(state.batch).toBe(1)
    expect(state.batchLogs).toHaveLength(4)
    const [{ log, proof }] = state.proofs
    const layout = proofLayout(proof!.proof)
    expect(layout).toMatchObject({ format: 'metadata', version: 1, final: true })
    expect(layout.logPath).toHaveLength(15)
    expect(walkPath(leafHash(log), layout.logPath, proof!.id).root).toBe(proof!.root)
    expect(batchRootFromLeaves(state.batchLogs.map(leafHash), layout)).toBe(proof!.root)
    expect(log.value).toBe(keccak256(state.messages[0].message))
  }
  await node.close()
})

test('a tampered leaf does not verify', async () => {
  const { node, request, send } = await chain({})
  const state = await messageState(request, await send(0, 'hello'))
  if (state.stage !== 'mined' || !state.sealed) throw new Error('not sealed')
  const [{ log, proof }] = state.proofs
  const layout = proofLayout(proof!.proof)
  const tampered = { ...log, value: keccak256(stringToHex('hellO')) }
  expect(walkPath(leafHash(tampered), layout.logPath, proof!.id).root).not.toBe(proof!.root)
  await node.close()
})

test('messages: text or whole hex bytes; shown as text only when printable UTF-8', () => {
  expect(messageBytes('hi', 'text')).toBe('0x6869')
  expect(messageBytes(' 0xABcd ', 'hex')).toBe('0xabcd')
  expect(() => messageBytes('0xabc', 'hex')).toThrow(/whole bytes/)
  expect(() => messageBytes('hello', 'hex')).toThrow(/whole bytes/)
  expect(messageText('0x6869')).toBe('hi')
  expect(messageText('0x00ff')).toBeUndefined()
  expect(messageText('0x')).toBe('')
})
