import pkg from '../../package.json' with { type: 'json' }

/** The version this build reports (web3_clientVersion, later the SW protocol check). */
export const VERSION: string = pkg.version
