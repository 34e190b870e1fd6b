import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, test } from 'vitest'
import { artifactModule } from '../../../scripts/compile-dapp-contract.mjs'

test("the dApp's committed token artifact is what the pinned solc makes of FaucetToken.sol", () => {
  const committed = readFileSync(join(import.meta.dirname, '..', '..', '..', 'demo', 'dapp', 'faucetToken.artifact.ts'), 'utf8')
  expect(committed).toBe(artifactModule())
}, 60_000)
