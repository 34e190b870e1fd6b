/** The text of demo/dapp/faucetToken.artifact.ts as the pinned solc makes it from FaucetToken.sol. */
export function artifactModule(): string
