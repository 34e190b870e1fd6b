/**
 * The example dApp: a token faucet and transfers, written as any dApp is, against a JSON-RPC URL
 * with viem's unmodified `http` transport. What makes it work offline is the page's first step:
 * it starts the playground's pagenode (or joins it, when a playground tab already runs it), whose
 * service worker answers `POST /rpc` on this origin. After that the page talks to the chain only
 * over HTTP, never through the node's provider.
 */
import { createPublicClient, createWalletClient, formatUnits, getAddress, http, isAddress, parseUnits, type Address, type Hash } from 'viem'
import { zksyncInMemoryNode } from 'viem/zksync'
import { ServiceWorkerError, startNode } from '../../src/client/index.ts'
import { BASE_URLS, CHAIN_NAME, SERVICE_WORKER_SCRIPT } from '../playground/session.ts'
import { byId } from '../playground/ui/dom.ts'
import { DEV_WALLETS } from './devWallets.ts'
import { FAUCET_TOKEN_ABI, FAUCET_TOKEN_BYTECODE } from './faucetToken.artifact.ts'
import { failureText, describeFailure } from './rpcError.ts'
import { ensureToken } from './token.ts'

const SYMBOL = 'PAGE'
const DECIMALS = 18
/** eth_getLogs spans at most this many blocks (the node's limit). */
const LOG_RANGE = 10_000n
const SHOWN_TRANSFERS = 20


const statusLine = byId<HTMLParagraphElement>('dapp-status')
const app = byId<HTMLElement>('app')
const accountSelect = byId<HTMLSelectElement>('account')
const balanceText = byId<HTMLElement>('balance')
const claimButton = byId<HTMLButtonElement>('claim')
const claimOutcome = byId<HTMLDivElement>('claim-outcome')
const transferForm = byId<HTMLFormElement>('transfer-form')
const recipientInput = byId<HTMLInputElement>('recipient')
const amountInput = byId<HTMLInputElement>('amount')
const transferError = byId<HTMLParagraphElement>('transfer-error')
const sendButton = byId<HTMLButtonElement>('send')
const transferOutcome = byId<HTMLDivElement>('transfer-outcome')
const balancesBody = byId<HTMLTableSectionElement>('balances')
const transfersBody = byId<HTMLTableSectionElement>('transfers')
const transfersNote = byId<HTMLParagraphElement>('transfers-note')

const tokens = (amount: bigint) => `${formatUnits(amount, DECIMALS)} ${SYMBOL}`
const short = (value: string) => `${value.slice(0, 8)}…${value.slice(-6)}`
const accountName = (address: Address) => {
  const index = DEV_WALLETS.findIndex((w) => w.address === getAddress(address))
  return index < 0 ? short(address) : `account ${index} (${short(address)})`
}

function element(tag: string, text: string, attributes: Record<string, string> = {}): HTMLElement {
  const el = document.createElement(tag)
  el.textContent = text
  for (const [name, value] of Object.entries(attributes)) el.setAttribute(name, value)
  return el
}

function showStatus(text: string, state: 'starting' | 'ready' | 'failed'): void {
  statusLine.textContent = text
  statusLine.dataset.state = state
}

/** A failure where it happened: the JSON-RPC code first, then the reason. */
function failureView(error: unknown, testid: string): HTMLElement {
  const { code } = describeFailure(error)
  const view = element('div', failureText(error), { class: 'error', role: 'alert', 'data-testid': testid })
  if (code !== undefined) view.dataset.code = String(code)
  return view
}

function outcomeView(text: string, hash: Hash, testid: string): HTMLElement {
  const view = element('p', `${text} · `, { class: 'outcome ok-text', 'data-testid': testid })
  view.append(element('span', short(hash), { class: 'hash', title: hash }))
  return view
}

async function start(): Promise<void> {
  // 1. The node and its HTTP endpoint: the only thing this page does that a dApp would not.
  try {
    await startNode({ name: CHAIN_NAME, baseUrls: BASE_URLS, serviceWorker: SERVICE_WORKER_SCRIPT })
  } catch (error) {
    const why = error instanceof ServiceWorkerError ? `the HTTP endpoint is unavailable (${error.message}); this dApp talks to the chain over HTTP only` : failureText(error)
    showStatus(`node failed to start: ${why}`, 'failed')
    throw error
  }

  // 2. From here on, an ordinary viem dApp on an HTTP URL.
  const url = new URL(BASE_URLS[0], location.href).href
  const transport = http(url)
  const client = createPublicClient({ chain: zksyncInMemoryNode, transport, pollingInterval: 500 })
  const walletFor = (index: number) => createWalletClient({ chain: zksyncInMemoryNode, transport, account: DEV_WALLETS[index], pollingInterval: 500 })
  byId('endpoint').textContent = url

  for (const [i, wallet] of DEV_WALLETS.entries()) {
    accountSelect.append(element('option', `account ${i} · ${short(wallet.address)}`, { value: String(i) }))
    byId('known-accounts').append(element('option', `account ${i}`, { value: wallet.address }))
  }
  recipientInput.value = DEV_WALLETS[1].address
  const wallet = () => walletFor(Number(accountSelect.value))

  const tokenNote = byId('token-note')
  let token: Awaited<ReturnType<typeof ensureToken>>
  try {
    const deploy = () => walletFor(0).deployContract({ abi: FAUCET_TOKEN_ABI, bytecode: FAUCET_TOKEN_BYTECODE })
    token = await ensureToken(client, deploy, (hash) => {
      tokenNote.replaceChildren(`Deploying the token for this chain (transaction ${short(hash)})…`)
    })
  } catch (error) {
    showStatus(`could not deploy the token: ${failureText(error)}`, 'failed')
    throw error
  }
  byId('token-address').textContent = token.address
  tokenNote.textContent = token.deployedNow
    ? `Deployed in block ${token.block}; this browser remembers it for this chain.`
    : `Deployed in block ${token.block} (remembered from an earlier visit).`

  const balanceOf = (address: Address) => client.readContract({ address: token.address, abi: FAUCET_TOKEN_ABI, functionName: 'balanceOf', args: [address] })

  async function refresh(head: bigint): Promise<void> {
    showStatus(`connected · chain ${client.chain.id} · block ${head} · over ${url}`, 'ready')
    const [balances, transfers] = await Promise.all([
      Promise.all(DEV_WALLETS.map((w) => balanceOf(w.address))),
      client.getContractEvents({ address: token.address, abi: FAUCET_TOKEN_ABI, eventName: 'Transfer', fromBlock: head - token.block >= LOG_RANGE ? head - LOG_RANGE + 1n : token.block, toBlock: head }),
    ])
    balanceText.textContent = tokens(balances[Number(accountSelect.value)])
    balancesBody.replaceChildren(
      ...DEV_WALLETS.map((w, i) => {
        const row = document.createElement('tr')
        row.dataset.account = String(i)
        row.append(element('td', `account ${i} · ${short(w.address)}`, { class: 'hash', title: w.address }), element('td', tokens(balances[i]), { class: 'num' }))
        return row
      }),
    )
    const recent = transfers.slice(-SHOWN_TRANSFERS).reverse()
    transfersBody.replaceChildren(
      ...recent.map((log) => {
        const row = document.createElement('tr')
        const { from, to, value } = log.args
        row.append(
          element('td', String(log.blockNumber), { class: 'num' }),
          element('td', from === '0x0000000000000000000000000000000000000000' ? 'faucet' : accountName(from!), { class: 'hash', title: from! }),
          element('td', accountName(to!), { class: 'hash', title: to! }),
          element('td', formatUnits(value!, DECIMALS), { class: 'num' }),
          element('td', short(log.transactionHash), { class: 'hash', title: log.transactionHash }),
        )
        return row
      }),
    )
    transfersNote.textContent = transfers.length === 0 ? 'No transfers yet: claim some tokens.' : `${transfers.length} Transfer event${transfers.length === 1 ? '' : 's'} (eth_getLogs), the last ${Math.min(transfers.length, SHOWN_TRANSFERS)} shown, newest first.`
  }

  let lastHead = await client.getBlockNumber()
  const refreshNow = async () => {
    try {
      lastHead = await client.getBlockNumber()
      await refresh(lastHead)
    } catch (error) {
      showStatus(`connected, but a read failed: ${failureText(error)}`, 'failed')
    }
  }
  await refreshNow()
  app.hidden = false
  // New blocks from anywhere (this page, a playground tab, a script over HTTP): polled, as over any HTTP node.
  client.watchBlockNumber({ poll: true, pollingInterval: 1_000, onBlockNumber: () => void refreshNow(), onError: (error) => showStatus(`polling failed: ${failureText(error)}`, 'failed') })
  accountSelect.addEventListener('change', () => void refreshNow())

  claimButton.addEventListener('click', async () => {
    claimButton.disabled = true
    claimOutcome.replaceChildren(element('p', 'Claiming…', { class: 'hint' }))
    try {
      const hash = await wallet().writeContract({ address: token.address, abi: FAUCET_TOKEN_ABI, functionName: 'faucet' })
      const receipt = await client.waitForTransactionReceipt({ hash })
      if (receipt.status !== 'success') throw new Error(`transaction ${hash} reverted`)
      claimOutcome.replaceChildren(outcomeView(`Claimed 100 ${SYMBOL} in block ${receipt.blockNumber}`, hash, 'claim-done'))
      await refreshNow()
    } catch (error) {
      claimOutcome.replaceChildren(failureView(error, 'claim-error'))
    } finally {
      claimButton.disabled = false
    }
  })

  transferForm.addEventListener('submit', async (event) => {
    event.preventDefault()
    const problem = (text: string, input: HTMLInputElement) => {
      transferError.textContent = text
      transferError.hidden = false
      input.setAttribute('aria-invalid', 'true')
      input.focus()
    }
    for (const input of [recipientInput, amountInput]) input.removeAttribute('aria-invalid')
    transferError.hidden = true
    const to = recipientInput.value.trim()
    if (!isAddress(to)) return problem('Enter a 0x address of 40 hex digits.', recipientInput)
    let amount: bigint
    try {
      amount = parseUnits(amountInput.value.trim(), DECIMALS)
      if (amount <= 0n) throw new Error()
    } catch {
      return problem(`Enter an amount above 0, e.g. 12.5 (up to ${DECIMALS} decimals).`, amountInput)
    }
    sendButton.disabled = true
    transferOutcome.replaceChildren(element('p', 'Sending…', { class: 'hint' }))
    try {
      const hash = await wallet().writeContract({ address: token.address, abi: FAUCET_TOKEN_ABI, functionName: 'transfer', args: [to, amount] })
      const receipt = await client.waitForTransactionReceipt({ hash })
      if (receipt.status !== 'success') throw new Error(`transaction ${hash} reverted`)
      transferOutcome.replaceChildren(outcomeView(`Sent ${tokens(amount)} to ${accountName(to)} in block ${receipt.blockNumber}`, hash, 'transfer-done'))
      await refreshNow()
    } catch (error) {
      transferOutcome.replaceChildren(failureView(error, 'transfer-failure'))
    } finally {
      sendButton.disabled = false
    }
  })
}

start().catch((error) => {
  console.error(error)
  if (statusLine.dataset.state !== 'failed') showStatus(`failed: ${failureText(error)}`, 'failed')
})
