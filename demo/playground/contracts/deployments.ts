/**
 * The contracts deployed from the playground, with their ABIs: the chain survives reloads (it is
 * in IndexedDB), so the list does too, in localStorage under the chain id. A chain that was reset
 * loses the code; `prune` drops the entries whose address holds none any more.
 */
import type { Abi } from 'viem'
import type { Hex, Session } from '../session.ts'

export interface Deployment {
  name: string
  address: Hex
  abi: Abi
  /** The deploying transaction (none for a contract added by its address). */
  transactionHash?: Hex
  deployer: Hex
}

const storageKey = (chainId: number): string => `pagenode.playground.contracts.${chainId}`

export class Deployments {
  private list: Deployment[]
  private readonly listeners = new Set<() => void>()

  constructor(private readonly chainId: number) {
    this.list = read(chainId)
  }

  get all(): readonly Deployment[] {
    return this.list
  }

  onChange(listener: () => void): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  add(deployment: Deployment): void {
    this.list = [deployment, ...this.list.filter((d) => d.address.toLowerCase() !== deployment.address.toLowerCase())]
    this.changed()
  }

  remove(address: string): void {
    this.list = this.list.filter((d) => d.address.toLowerCase() !== address.toLowerCase())
    this.changed()
  }

  /** Forgets the contracts that have no code on the chain now (after a reset or a revert). */
  async prune(session: Session): Promise<void> {
    const codes = await Promise.all(this.list.map((d) => session.request<string>('eth_getCode', [d.address, 'latest']).catch(() => undefined)))
    // An unanswered query keeps the entry: only a definite "no code" removes one.
    const kept = this.list.filter((_, index) => codes[index] !== '0x')
    if (kept.length !== this.list.length) {
      this.list = kept
      this.changed()
    }
  }

  private changed(): void {
    try {
      localStorage.setItem(storageKey(this.chainId), JSON.stringify(this.list))
    } catch (error) {
      // Storage full or disabled: the list still works for this page's life.
      console.warn('could not keep the deployed contracts', error)
    }
    for (const listener of this.listeners) listener()
  }
}

function read(chainId: number): Deployment[] {
  try {
    const parsed: unknown = JSON.parse(localStorage.getItem(storageKey(chainId)) ?? '[]')
    return Array.isArray(parsed) ? parsed.filter((d): d is Deployment => typeof d?.address === 'string' && Array.isArray(d?.abi) && typeof d?.name === 'string') : []
  } catch {
    return []
  }
}
