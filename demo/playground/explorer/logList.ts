/**
 * Event logs as the node returns them: emitting address, topics (topic 0 is the event's
 * signature hash) and data. Used by a transaction's receipt and by the eth_getLogs form.
 */
import { abiLibrary } from '../decoding/abiLibrary.ts'
import { decodeEvent } from '../decoding/decode.ts'
import { h } from '../ui/dom.ts'
import { explorerLink } from '../ui/links.ts'
import type { RpcLog } from './types.ts'

export function logList(logs: RpcLog[], options: { showTransaction?: boolean; testid?: string } = {}): HTMLElement {
  if (logs.length === 0) return h('p', { class: 'hint', testid: options.testid }, 'No logs.')
  return h(
    'ol',
    { class: 'log-list', testid: options.testid },
    logs.map((log) => {
      const event = decodeEvent(abiLibrary.abisFor(log.address), log)
      return h(
        'li',
        { class: 'log', testid: 'log' },
        h(
          'dl',
          { class: 'facts' },
          event ? [h('dt', {}, 'event'), h('dd', { testid: 'log-event', title: `decoded with ${event.source}` }, event.text)] : undefined,
          h('dt', {}, 'log index'),
          h('dd', {}, String(Number(BigInt(log.logIndex)))),
          options.showTransaction ? [h('dt', {}, 'block'), h('dd', {}, explorerLink(String(BigInt(log.blockNumber)), String(BigInt(log.blockNumber))))] : undefined,
          options.showTransaction ? [h('dt', {}, 'transaction'), h('dd', {}, explorerLink(log.transactionHash))] : undefined,
          h('dt', {}, 'address'),
          h('dd', { testid: 'log-address' }, explorerLink(log.address, log.address)),
          log.topics.flatMap((topic, i) => [h('dt', {}, `topic ${i}`), h('dd', { class: 'hash', testid: 'log-topic' }, topic)]),
          h('dt', {}, 'data'),
          h('dd', { class: 'hash', testid: 'log-data' }, log.data === '0x' ? '0x (empty)' : log.data),
        ),
      )
    }),
  )
}
