/**
 * The Solidity compilers the playground ships (devDependencies: `solc`, and `solc-0.8.37`, an npm
 * alias of solc@0.8.37), and the one the person chose, kept in this browser.
 *
 * The default is the one the offline service worker precaches; another is downloaded when chosen
 * and kept by the service worker from its first use (demo/vite/offlinePlugin.ts names it). Every
 * version listed knows the 'prague' EVM the node runs.
 */
export const SOLC_VERSIONS = ['0.8.28', '0.8.37'] as const
export type SolcVersion = (typeof SOLC_VERSIONS)[number]

export const DEFAULT_SOLC_VERSION: SolcVersion = '0.8.28'

/** The devDependency that ships each version (the worker imports their soljson.js by these names). */
export const SOLC_PACKAGES: Record<SolcVersion, string> = { '0.8.28': 'solc', '0.8.37': 'solc-0.8.37' }

const CHOICE_KEY = 'pagenode.playground.contracts.solc'

export const isSolcVersion = (value: unknown): value is SolcVersion => SOLC_VERSIONS.includes(value as SolcVersion)

/** The version chosen in this browser; the default when none was, or one no longer shipped. */
export function chosenSolcVersion(): SolcVersion {
  try {
    const stored = localStorage.getItem(CHOICE_KEY)
    return isSolcVersion(stored) ? stored : DEFAULT_SOLC_VERSION
  } catch {
    return DEFAULT_SOLC_VERSION // storage refused (a locked-down profile): the default, every time
  }
}

export function rememberSolcVersion(version: SolcVersion): void {
  try {
    localStorage.setItem(CHOICE_KEY, version)
  } catch {
    // Not kept across reloads, but this page still uses it.
  }
}
