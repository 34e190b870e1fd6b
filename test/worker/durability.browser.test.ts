/**
 * Nothing acknowledged is lost: the worker is killed (terminate(), as a crash) right after an
 * acknowledgement, at random points, and a new node on the same name must hold every
 * acknowledged transaction, the same head, and the state a node that never crashed would have.
 */
import { expect, test } from 'vitest'
import type { PageNode } from '../../src/client/index.ts'
import { createNode } from '../../src/core/node.ts'
import { DEV, signTransfer, start, uniqueName } from '../support/browser/nodes.ts'
import { random } from '../support/random.ts'

interface Head {
  number: string
  hash: string
  parentHash: string
  stateRoot: string
  transactions: string[]
}

const ROUNDS = 10

const headOf = (node: { request(args: { method: string; params: unknown[] }): Promise<unknown> }) =>
  node.request({ method: 'eth_getBlockByNumber', params: ['latest', false] }) as Promise<Head>

const nonceOf = async (node: PageNode, from: number) =>
  Number(await node.provider.request({ method: 'eth_getTransactionCount', params: [DEV[from].address, 'latest'] }))

test(`a worker killed right after an acknowledgement loses nothing acknowledged (${ROUNDS} random kills)`, async () => {
  const seed = Date.now()
  const next = random(seed)
  const name = uniqueName('durability')
  // The same transactions on a node that never crashes give the state roots to expect.
  const reference = await createNode()
  const raws = new Map<string, string>()
  const acknowledged: string[] = []
  // Both durability hints must keep the promise; the restarts alternate between them.
  const restart = (round: number) => start({ name, durability: round % 2 === 0 ? 'relaxed' : 'strict' })
  let node = await restart(0)

  for (let round = 0; round < ROUNDS; round++) {
    const where = `seed ${seed}, round ${round}`
    const before = await headOf(node.provider)
    const killed = node
    let lastAcked: string | undefined
    const concurrent = next(2) === 1
    if (!concurrent) {
      // One at a time: the kill lands right after the n-th acknowledgement, nothing else in flight.
      const count = 1 + next(3)
      let nonce = await nonceOf(node, 0)
      for (let i = 0; i < count; i++) {
        const raw = await signTransfer(0, nonce++, DEV[3].address, BigInt(round * 10 + i + 1))
        const hash = (await node.provider.request({ method: 'eth_sendRawTransaction', params: [raw] })) as string
        if (i === count - 1) killed.terminate()
        raws.set(hash, raw)
        acknowledged.push(hash)
        lastAcked = hash
      }
    } else {
      // Several senders at once: the kill lands right after the first acknowledgement, while the
      // others are being mined or committed (group commit).
      const senders = [0, 1, 2].slice(0, 2 + next(2))
      const signed = await Promise.all(senders.map(async (from) => signTransfer(from, await nonceOf(node, from), DEV[3].address, BigInt(round))))
      let alive = true
      await Promise.any(
        signed.map((raw) =>
          node.provider.request({ method: 'eth_sendRawTransaction', params: [raw] }).then((hash) => {
            if (!alive) return
            killed.terminate()
            alive = false
            raws.set(hash as string, raw)
            acknowledged.push(hash as string)
          }),
        ),
      )
      for (const raw of signed) raws.set(await hashOf(raw), raw)
    }

    node = await restart(round + 1)
    for (const hash of acknowledged) {
      const receipt = (await node.provider.request({ method: 'eth_getTransactionReceipt', params: [hash] })) as { status: string } | null
      expect(receipt, `${where}: acknowledged ${hash} is gone`).not.toBeNull()
      expect(receipt!.status).toBe('0x1')
    }
    const head = await headOf(node.provider)
    if (lastAcked) {
      // Nothing was in flight: the head is the block of the last acknowledged transaction.
      expect(head.transactions, where).toEqual([lastAcked])
      expect(BigInt(head.number), where).toBeGreaterThan(BigInt(before.number))
    } else {
      expect(BigInt(head.number), where).toBeGreaterThan(BigInt(before.number))
    }

    // Replay what the restarted chain holds on the reference node: the same state roots.
    let replayed = await headOf(reference)
    for (let n = BigInt(replayed.number) + 1n; n <= BigInt(head.number); n++) {
      const block = (await node.provider.request({ method: 'eth_getBlockByNumber', params: [`0x${n.toString(16)}`, false] })) as Head
      for (const hash of block.transactions) await reference.request({ method: 'eth_sendRawTransaction', params: [raws.get(hash)] })
      replayed = await headOf(reference)
      expect(replayed.stateRoot, `${where}: state root of block ${n}`).toBe(block.stateRoot)
    }
    expect(replayed.number).toBe(head.number)
  }
  await reference.close()
}, 120_000)

async function hashOf(raw: string): Promise<string> {
  const { keccak256 } = await import('ethers')
  return keccak256(raw)
}

const BURSTS = 6

test(`a worker killed during an out-of-order nonce burst loses no acknowledged transaction, mined or pooled (${BURSTS} kills)`, async () => {
  const seed = Date.now()
  const next = random(seed)
  const name = uniqueName('pool-durability')
  let node = await start({ name })
  let acknowledgedTotal = 0
  let lost = 0
  for (let trial = 0; trial < BURSTS; trial++) {
    const where = `seed ${seed}, trial ${trial}`
    const from = trial % 3
    const base = await nonceOf(node, from)
    // 12 nonces sent at once in a shuffled order: most arrive with a gap and wait in the pool.
    const nonces = Array.from({ length: 12 }, (_, i) => base + i)
    for (let i = nonces.length - 1; i > 0; i--) {
      const j = next(i + 1)
      ;[nonces[i], nonces[j]] = [nonces[j], nonces[i]]
    }
    const signed = await Promise.all(nonces.map((nonce) => signTransfer(from, nonce, DEV[3].address, BigInt(trial + 1))))
    const killAfter = 1 + next(nonces.length - 1)
    const acknowledged: string[] = []
    const killed = node
    await new Promise<void>((resolve) => {
      let answered = 0
      let alive = true
      const kill = () => {
        if (!alive) return
        alive = false
        killed.terminate()
        resolve()
      }
      for (const raw of signed) {
        killed.provider
          .request({ method: 'eth_sendRawTransaction', params: [raw] })
          .then((hash) => alive && acknowledged.push(hash as string))
          .catch(() => {})
          .finally(() => {
            answered++
            if (acknowledged.length >= killAfter || answered === signed.length) kill()
          })
      }
    })
    acknowledgedTotal += acknowledged.length
    node = await start({ name })
    for (const hash of acknowledged) {
      const tx = await node.provider.request({ method: 'eth_getTransactionByHash', params: [hash] })
      if (tx === null) lost++
      expect(tx, `${where}: acknowledged ${hash} is gone`).not.toBeNull()
    }
    // The next burst starts from a clean pool (a lost unacknowledged one would leave a gap).
    await node.provider.request({ method: 'evm_mine', params: [] })
    await node.provider.request({ method: 'anvil_dropAllTransactions', params: [] })
  }
  console.log(`pool durability: ${BURSTS} trials, ${acknowledgedTotal} acknowledged, ${lost} lost (seed ${seed})`)
  expect(lost).toBe(0)
}, 120_000)
