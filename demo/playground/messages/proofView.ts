/**
 * The proof of one L2→L1 log, checked in the page and shown step by step: the leaf rebuilt from
 * the receipt, the Merkle path walked to a root, that root against the node's, and the batch
 * root rebuilt from every log of the batch.
 */
import { h } from '../ui/dom.ts'
import { shortHash } from '../ui/format.ts'
import { batchRootFromLeaves, leafHash, LOGS_TREE_DEPTH, proofLayout, sameHash, serializeLog, walkPath, type ProofLayout, type ReceiptL2ToL1Log } from './proof.ts'
import type { ProvenLog } from './status.ts'

const hex = (value: string) => h('span', { class: 'hash' }, value)

function facts(rows: [string, Node | string][]): HTMLDListElement {
  return h('dl', { class: 'facts' }, ...rows.flatMap(([term, value]) => [h('dt', {}, term), h('dd', {}, value)]))
}

/** What each proof element is, from the metadata word. */
function proofLabels(layout: ProofLayout, length: number): string[] {
  const labels: string[] = []
  if (layout.format === 'metadata') {
    labels.push(`metadata: version ${layout.version}, ${layout.logPath.length} in the log path, ${layout.batchPath.length} in the batch path, ${layout.final ? 'final (settles on L1)' : 'not final'}`)
  }
  layout.logPath.forEach((_, depth) => labels.push(depth < LOGS_TREE_DEPTH ? `sibling at depth ${depth}` : 'aggregated root (interop; fixed on this chain)'))
  layout.batchPath.forEach((_, k) => labels.push(`batch path ${k}`))
  while (labels.length < length) labels.push('unused')
  return labels
}

function verdict(testid: string, ok: boolean, okText: string, badText: string): HTMLElement {
  return h(
    'p',
    { class: ok ? 'verdict ok-text' : 'verdict error', testid, role: ok ? undefined : 'alert', dataset: { verified: String(ok) } },
    ok ? `${okText} ✓` : `✗ ${badText}`,
  )
}

export function provenLogView(proven: ProvenLog, batch: number, batchLogs: readonly ReceiptL2ToL1Log[]): HTMLElement {
  const { log, proof, index } = proven
  const card = h('section', { class: 'card message-proof', testid: 'log-proof', 'aria-label': `Proof of L2→L1 log ${index}` })
  card.append(
    h('h4', {}, `L2→L1 log ${index} of the transaction`),
    facts([
      ['shard', String(BigInt(log.shardId))],
      ['service log', String(log.isService)],
      ['tx index in batch', log.txIndexInL1Batch === null ? '—' : String(BigInt(log.txIndexInL1Batch))],
      ['sender', hex(log.sender)],
      ['key (the caller)', hex(log.key)],
      ['value (keccak256 of the message)', hex(log.value)],
    ]),
  )
  if (!proof) {
    card.append(h('p', { class: 'error', role: 'alert', testid: 'verdict', dataset: { verified: 'false' } }, `zks_getL2ToL1LogProof(tx, ${index}) answered null`))
    return card
  }

  const serialized = serializeLog(log)
  const leaf = leafHash(log)
  const layout = proofLayout(proof.proof)
  const walked = walkPath(leaf, layout.logPath, proof.id)
  const pathOk = sameHash(walked.root, proof.root)
  const leaves = batchLogs.map(leafHash)
  const batchRoot = batchRootFromLeaves(leaves, layout)
  const batchOk = sameHash(batchRoot, proof.root)
  const idOk = leaves[proof.id] !== undefined && sameHash(leaves[proof.id], leaf)
  const labels = proofLabels(layout, proof.proof.length)

  card.append(
    h('h5', {}, 'Leaf'),
    facts([
      ['88 bytes', h('span', { class: 'hash', testid: 'leaf-bytes' }, serialized)],
      ['keccak256', h('span', { class: 'hash', testid: 'leaf' }, leaf)],
    ]),
    h('h5', {}, 'zks_getL2ToL1LogProof'),
    facts([
      ['id', h('span', { testid: 'proof-id' }, String(proof.id))],
      ['root', h('span', { class: 'hash', testid: 'proof-root' }, proof.root)],
    ]),
    h(
      'details',
      { class: 'proof-elements' },
      h('summary', {}, `proof: ${proof.proof.length} elements`),
      h('ol', { start: '0', testid: 'proof-array' }, ...proof.proof.map((element, i) => h('li', {}, hex(element), h('span', { class: 'hint' }, ` ${labels[i]}`)))),
    ),
    h('h5', {}, 'Recomputed in this page'),
    h(
      'details',
      { class: 'proof-path' },
      h('summary', {}, `Merkle path: ${walked.steps.length} hashes from the leaf (index ${proof.id}) to the root`),
      h(
        'table',
        {},
        h('thead', {}, h('tr', {}, h('th', { class: 'num' }, 'step'), h('th', {}, 'node is'), h('th', {}, 'sibling'), h('th', {}, 'keccak256 of the pair'))),
        h(
          'tbody',
          {},
          ...walked.steps.map((step, i) =>
            h('tr', {}, h('td', { class: 'num' }, String(i)), h('td', {}, step.side), h('td', { class: 'hash', title: step.sibling }, shortHash(step.sibling, 8)), h('td', { class: 'hash', title: step.result }, shortHash(step.result, 8))),
          ),
        ),
      ),
    ),
    facts([['root from leaf + path', h('span', { class: 'hash', testid: 'recomputed-root' }, walked.root)]]),
    verdict('verdict', pathOk, 'verified: the recomputed root equals the proof’s root', `mismatch: the recomputed root ${walked.root} differs from the proof’s root ${proof.root}`),
    facts([['root of batch ' + batch + ' from all its logs', h('span', { class: 'hash', testid: 'batch-root' }, batchRoot)]]),
    verdict(
      'batch-verdict',
      batchOk && idOk,
      `the batch’s ${leaves.length} L2→L1 log${leaves.length === 1 ? '' : 's'} (from its blocks’ receipts) rebuild the same root, and leaf ${proof.id} is this log`,
      !idOk ? `leaf ${proof.id} of batch ${batch} is not this log` : `mismatch: the batch’s ${leaves.length} logs give ${batchRoot}, not ${proof.root}`,
    ),
  )
  return card
}
