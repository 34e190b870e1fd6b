/**
 * The version this build reports (web3_clientVersion, the CLI's --version). A literal rather than
 * an import of package.json, which lies outside the compiled tree; a test keeps the two equal.
 */
export const VERSION = '0.1.0'
