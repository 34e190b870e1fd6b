import { toChecksumAddress } from '@ethereumjs/util'
import { DEV_MNEMONIC, VERSION, type MiningConfig, type Pagenode } from '../core/index.ts'
import { upstreamHost } from '../core/fork/upstream.ts'

export interface BannerFacts {
  node: Pagenode
  /** The mining mode the node started in; undefined: the interval mining a state file saved. */
  mining: MiningConfig | undefined
  url: string
  /** What the state file line says, or undefined without --state. */
  state?: string
  /** Lines worth a user's attention (a flag that did not apply, a recovered file). */
  notes: string[]
}

/**
 * What anvil prints at start, so the accounts can be pasted into a wallet or a script: each dev
 * account with its balance, then the private keys, the mnemonic, and last the URL (the line
 * scripts and tests wait for).
 */
export async function formatBanner({ node, mining, url, state, notes }: BannerFacts): Promise<string> {
  const [gasPrice, ...balances] = await Promise.all([
    node.request({ method: 'eth_gasPrice' }),
    ...node.accounts.map(({ address }) => node.request({ method: 'eth_getBalance', params: [address, 'latest'] })),
  ])
  const lines = [
    `pagenode v${VERSION}`,
    '',
    `Chain ID:   ${node.chainId} (0x${node.chainId.toString(16)})`,
    ...(node.fork ? [`Fork:       ${upstreamHost(node.fork.url)} at block ${node.fork.blockNumber}`] : []),
    `Mining:     ${mining ? describeMining(mining) : 'a block at the interval saved in the state file'}`,
    `Gas price:  ${BigInt(gasPrice as string)} wei`,
    `State:      ${state ?? 'in memory (gone at exit; keep it with --state <file>)'}`,
  ]
  if (node.accounts.length > 0) {
    lines.push('', 'Available Accounts', '==================')
    node.accounts.forEach(({ address }, i) => lines.push(`(${i}) ${toChecksumAddress(address)} (${formatEther(BigInt(balances[i] as string))} ETH)`))
    lines.push('', 'Private Keys', '==================')
    node.accounts.forEach(({ privateKey }, i) => lines.push(`(${i}) ${privateKey}`))
    lines.push(
      '',
      'Wallet',
      '==================',
      `Mnemonic:        ${DEV_MNEMONIC}`,
      `Derivation path: m/44'/60'/0'/0/`,
      'These keys are public: use them on this dev chain only.',
    )
  }
  for (const note of notes) lines.push('', `Note: ${note}`)
  lines.push('', `Listening on ${url}`)
  return lines.join('\n')
}

export function describeMining(mining: MiningConfig): string {
  switch (mining.mode) {
    case 'auto':
      return 'automine (a block per transaction)'
    case 'interval':
      return `a block every ${mining.intervalMs} ms`
    case 'manual':
      return 'manual (transactions wait in the pool)'
  }
}

/** Wei as ETH with the trailing zeros of the fraction dropped: 10000, 0.5, 9999.999979. */
export function formatEther(wei: bigint): string {
  const whole = wei / 10n ** 18n
  const fraction = (wei % 10n ** 18n).toString().padStart(18, '0').replace(/0+$/, '')
  return fraction ? `${whole}.${fraction}` : `${whole}`
}
