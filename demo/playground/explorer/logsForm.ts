/** The eth_getLogs form: address, topics and a block range; the logs found, or the node's error. */
import type { Session } from '../session.ts'
import { field, h } from '../ui/dom.ts'
import { failureView } from '../ui/errors.ts'
import { logList } from './logList.ts'
import { logFilter } from './logsFilter.ts'
import { plural } from './present.ts'
import type { RpcLog } from './types.ts'

export function logsForm(session: Session): HTMLElement {
  const input = (name: string, placeholder: string) => h('input', { name, placeholder, autocomplete: 'off', spellcheck: 'false', testid: `logs-${name}` })
  const address = input('address', '0x… (any)')
  const topics = [0, 1, 2, 3].map((i) => input(`topic${i}`, i === 0 ? 'Transfer(address,address,uint256) or its hash (any)' : '(any)'))
  const fromBlock = input('fromBlock', '0')
  const toBlock = input('toBlock', 'latest')
  const filterText = h('p', { class: 'hint mono', testid: 'logs-filter' })
  const results = h('div', { testid: 'logs-results', 'aria-live': 'polite' })
  const submit = h('button', { type: 'submit', testid: 'logs-submit' }, 'Get logs')

  const form = h(
    'form',
    {
      class: 'logs-form',
      'aria-label': 'eth_getLogs',
      async onsubmit(event: Event) {
        event.preventDefault()
        let filter
        try {
          filter = logFilter({ address: address.value, topics: topics.map((topic) => topic.value), fromBlock: fromBlock.value, toBlock: toBlock.value })
        } catch (error) {
          filterText.textContent = ''
          results.replaceChildren(failureView(error, 'logs-error'))
          return
        }
        filterText.textContent = `eth_getLogs ${JSON.stringify([filter])}`
        submit.disabled = true
        results.replaceChildren(h('p', { class: 'hint' }, 'Querying…'))
        try {
          const logs = await session.request<RpcLog[]>('eth_getLogs', [filter])
          results.replaceChildren(h('p', { testid: 'logs-count' }, plural(logs.length, 'log')), logList(logs, { showTransaction: true }))
        } catch (error) {
          results.replaceChildren(failureView(error, 'logs-error'))
        } finally {
          submit.disabled = false
        }
      },
    },
    h('div', { class: 'row' }, field('Address', address, 'One address, or several separated by commas.'), field('From block', fromBlock, 'Number, hex or tag; empty: 0.'), field('To block', toBlock, 'Empty: latest.')),
    h('div', { class: 'row' }, ...topics.map((topic, i) => field(`Topic ${i}`, topic))),
    h('p', { class: 'hint' }, 'Each topic: empty matches anything; several values separated by commas match any of them; an event signature stands for its keccak-256 hash.'),
    h('p', {}, submit),
  )
  return h('section', { class: 'card', 'aria-labelledby': 'explorer-logs-heading' }, h('h3', { id: 'explorer-logs-heading' }, 'Logs (eth_getLogs)'), form, filterText, results)
}
