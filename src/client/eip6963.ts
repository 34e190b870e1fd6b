/**
 * EIP-6963 (multi injected provider discovery): the page's provider announced as a wallet, so that
 * wagmi, mipd, RainbowKit, Web3Modal and other discovery code list it beside any extension wallet.
 * The node is the wallet: it signs for its dev accounts (docs/methods.md, "Wallet: the dev
 * accounts").
 */

/** What EIP-6963 says about a wallet. */
export interface ProviderInfo {
  /** A UUIDv4, new for every announcing provider. */
  uuid: string
  name: string
  /** A data URI (RFC 2397) of a square image, 96×96 px or more. */
  icon: string
  /** Reverse DNS name: what a dApp remembers the wallet by across sessions. */
  rdns: string
}

export interface ProviderDetail {
  info: ProviderInfo
  provider: unknown
}

/** A plain square icon (SVG, 96×96): an outlined page over the chain id's hexagon. */
const ICON = `data:image/svg+xml;base64,${btoa(
  '<svg xmlns="http://www.w3.org/2000/svg" width="96" height="96" viewBox="0 0 96 96">' +
    '<rect width="96" height="96" rx="18" fill="#1e1e2e"/>' +
    '<path d="M28 18h28l14 14v46H28z" fill="none" stroke="#8ab4f8" stroke-width="5" stroke-linejoin="round"/>' +
    '<path d="M48 40l11 6v13l-11 6-11-6V46z" fill="#8ab4f8"/></svg>',
)}`

export const DEFAULT_PROVIDER_INFO: Omit<ProviderInfo, 'uuid'> = { name: 'pagenode', icon: ICON, rdns: 'dev.pagenode' }

/**
 * Announces `provider` on `eip6963:announceProvider` now and again on every
 * `eip6963:requestProvider` (a dApp that loads later asks). Returns the end of the answering.
 */
export function announceProvider(provider: unknown, info: Partial<Omit<ProviderInfo, 'uuid'>> = {}, target: EventTarget = window): () => void {
  const detail: ProviderDetail = Object.freeze({
    info: Object.freeze({ uuid: crypto.randomUUID(), ...DEFAULT_PROVIDER_INFO, ...info }),
    provider,
  })
  const announce = () => target.dispatchEvent(new CustomEvent('eip6963:announceProvider', { detail }))
  target.addEventListener('eip6963:requestProvider', announce)
  announce()
  return () => target.removeEventListener('eip6963:requestProvider', announce)
}
