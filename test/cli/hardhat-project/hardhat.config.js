// A Hardhat 2 project as its users write one: ethers, the chai matchers and the network helpers,
// tested on Hardhat's own network and on pagenode (`--network pagenode`, the CLI's HTTP URL).
const { subtask } = require('hardhat/config')
const { TASK_COMPILE_SOLIDITY_GET_SOLC_BUILD } = require('hardhat/builtin-tasks/task-names')
require('@nomicfoundation/hardhat-ethers')
require('@nomicfoundation/hardhat-chai-matchers')

const SOLC_VERSION = '0.8.28'

// Hardhat downloads solc from the Solidity project's server, which tests cannot reach (offline,
// CI). The repository already has solc-js 0.8.28 (its `solc` devDependency): compile with that.
subtask(TASK_COMPILE_SOLIDITY_GET_SOLC_BUILD, async ({ solcVersion }) => {
  if (solcVersion !== SOLC_VERSION) {
    throw new Error(`this fixture compiles with the local solc-js ${SOLC_VERSION} only, not ${solcVersion}`)
  }
  const solc = require('solc')
  return {
    version: SOLC_VERSION,
    longVersion: solc.version().replace(/\.Emscripten\..*$/, ''),
    compilerPath: require.resolve('solc/soljson.js'),
    isSolcJs: true,
  }
})

/** @type {import('hardhat/config').HardhatUserConfig} */
module.exports = {
  solidity: {
    version: SOLC_VERSION,
    settings: { optimizer: { enabled: true, runs: 200 }, evmVersion: 'cancun' },
  },
  // test/cli/hardhat.test.ts reads the results as mocha's JSON report, written to this file.
  mocha: process.env.MOCHA_JSON_OUTPUT ? { reporter: 'json', reporterOption: { output: process.env.MOCHA_JSON_OUTPUT } } : {},
  networks: {
    // Large.sol deploys more code than EIP-170 allows; pagenode runs with --disable-code-size-limit.
    hardhat: { allowUnlimitedContractSize: true },
    // The CLI's dev accounts are Hardhat's (the same mnemonic), unlocked: `accounts: 'remote'`.
    pagenode: { url: process.env.PAGENODE_URL ?? 'http://127.0.0.1:8011', accounts: 'remote' },
  },
}
