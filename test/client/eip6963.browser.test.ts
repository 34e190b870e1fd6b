/**
 * EIP-6963: the page's node announced as a wallet, found by wagmi's discovery (mipd), connected,
 * and used to send a transaction.
 */
import { connect, createConfig, disconnect, getAccount, getConnectors, sendTransaction, waitForTransactionReceipt } from '@wagmi/core'
import { custom } from 'viem'
import { zksyncInMemoryNode } from 'viem/chains'
import { expect, onTestFinished, test } from 'vitest'
import type { ProviderDetail } from '../../src/client/index.ts'
import { DEV, start, uniqueName } from '../support/browser/nodes.ts'

function wagmiConfig(provider: unknown) {
  return createConfig({
    chains: [zksyncInMemoryNode],
    // Reads go to the node too; multiInjectedProviderDiscovery (EIP-6963) is on by default.
    transports: { [zksyncInMemoryNode.id]: custom(provider as Parameters<typeof custom>[0]) },
  })
}

test('wagmi discovers the node through EIP-6963, connects, reads the account and sends a transaction', async () => {
  const node = await start({ name: uniqueName('wagmi'), persist: false, announce: true })
  const config = wagmiConfig(node.provider)
  // wagmi's discovery listens to the window for as long as the page lives; the later tests'
  // announced nodes must not become connectors of this config once it is done.
  onTestFinished(() => config._internal.mipd?.destroy())
  await expect.poll(() => getConnectors(config).map((c) => c.id)).toContain('dev.pagenode')
  const connector = getConnectors(config).find((c) => c.id === 'dev.pagenode')!
  expect(connector.name).toBe('pagenode')
  expect(connector.icon).toMatch(/^data:image\/svg\+xml;base64,/)

  const { accounts, chainId } = await connect(config, { connector })
  expect(chainId).toBe(260)
  expect(accounts.map((a) => a.toLowerCase())).toContain(DEV[0].address)
  expect(getAccount(config)).toMatchObject({ status: 'connected', chainId: 260 })
  expect(getAccount(config).address!.toLowerCase()).toBe(DEV[0].address)

  const hash = await sendTransaction(config, { to: DEV[1].address, value: 12345n })
  const receipt = await waitForTransactionReceipt(config, { hash })
  expect(receipt.status).toBe('success')
  expect(receipt.from.toLowerCase()).toBe(DEV[0].address)
  await disconnect(config)
})

test('a dApp that loads after the node asks (eip6963:requestProvider) and is answered; a stopped node stops answering', async () => {
  const node = await start({ name: uniqueName('eip6963'), persist: false, announce: { name: 'My dev chain', rdns: 'org.example.devchain' } })
  const seen: ProviderDetail[] = []
  const listener = (event: Event) => seen.push((event as CustomEvent<ProviderDetail>).detail)
  window.addEventListener('eip6963:announceProvider', listener)
  try {
    window.dispatchEvent(new Event('eip6963:requestProvider'))
    const ours = seen.filter((d) => d.info.rdns === 'org.example.devchain')
    expect(ours).toHaveLength(1)
    expect(ours[0].info).toMatchObject({ name: 'My dev chain', rdns: 'org.example.devchain' })
    expect(ours[0].info.uuid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
    expect(ours[0].provider).toBe(node.provider)
    expect(Object.isFrozen(ours[0].info)).toBe(true)

    await node.stop()
    window.dispatchEvent(new Event('eip6963:requestProvider'))
    expect(seen.filter((d) => d.info.rdns === 'org.example.devchain')).toHaveLength(1)
  } finally {
    window.removeEventListener('eip6963:announceProvider', listener)
  }
})

test('without announce, nothing is announced', async () => {
  await start({ name: uniqueName('quiet'), persist: false })
  const seen: unknown[] = []
  const listener = (event: Event) => seen.push(event)
  window.addEventListener('eip6963:announceProvider', listener)
  window.dispatchEvent(new Event('eip6963:requestProvider'))
  window.removeEventListener('eip6963:announceProvider', listener)
  expect(seen).toHaveLength(0)
})
