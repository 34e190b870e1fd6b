/**
 * Gathering a compilation's sources: import paths read from Solidity, relative ones resolved,
 * library files fetched transitively, anything else refused by name; and an ERC-20 built on
 * OpenZeppelin Contracts (read from node_modules, as the site ships them) compiled by the pinned
 * solc. (Hardhat's console.sol is compiled with the Greeter example: contracts.test.ts.)
 */
import { createRequire } from 'node:module'
import { describe, expect, test } from 'vitest'
import { readSolcOutput, standardInput } from '../../../../demo/playground/contracts/compiler.ts'
import { gatherSources, ImportError, importPaths, resolveImport } from '../../../../demo/playground/contracts/imports.ts'
import { readLibrary } from '../../../support/solidityLibraries.ts'

const require = createRequire(import.meta.url)
const solc = require('solc') as { compile(input: string): string }

describe('import paths', () => {
  test('every form of import, comments left out', () => {
    const source = `import "./A.sol";\nimport {B, C} from '../lib/B.sol';\nimport * as D from "@x/D.sol";\nimport "E.sol" as E;\n// import "nope.sol";\n/* import "nope2.sol"; */`
    expect(importPaths(source)).toEqual(['./A.sol', '../lib/B.sol', '@x/D.sol', 'E.sol'])
  })

  test('relative paths against the importing file', () => {
    expect(resolveImport('@openzeppelin/contracts/token/ERC20/ERC20.sol', './IERC20.sol')).toBe('@openzeppelin/contracts/token/ERC20/IERC20.sol')
    expect(resolveImport('@openzeppelin/contracts/token/ERC20/ERC20.sol', '../../utils/Context.sol')).toBe('@openzeppelin/contracts/utils/Context.sol')
    expect(resolveImport('Main.sol', '@openzeppelin/contracts/access/Ownable.sol')).toBe('@openzeppelin/contracts/access/Ownable.sol')
  })
})

describe('gathering sources', () => {
  test('an OpenZeppelin ERC-20 compiles with every file it pulls in', async () => {
    const source = `// SPDX-License-Identifier: MIT\npragma solidity ^0.8.20;\nimport {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";\nimport {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";\ncontract Coin is ERC20, Ownable {\n  constructor() ERC20("Coin", "C") Ownable(msg.sender) { _mint(msg.sender, 100); }\n}\n`
    const sources = await gatherSources('Coin.sol', source, readLibrary)
    expect(Object.keys(sources)).toContain('@openzeppelin/contracts/token/ERC20/IERC20.sol')
    expect(Object.keys(sources)).toContain('@openzeppelin/contracts/utils/Context.sol')
    const { contracts, diagnostics } = readSolcOutput(JSON.parse(solc.compile(JSON.stringify(standardInput(sources)))), 'Coin.sol', source)
    expect(diagnostics.filter((d) => d.severity === 'error')).toEqual([])
    expect(contracts.map((c) => c.name)).toEqual(['Coin'])
    expect(contracts[0].bytecode.length).toBeGreaterThan(1000)
  }, 60_000)

  test("the workspace's own files import one another by name, relative or not, and compile together", async () => {
    const own: Record<string, string> = {
      'Base.sol': '// SPDX-License-Identifier: MIT\npragma solidity ^0.8.20;\nimport {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";\nabstract contract Base is Ownable { uint256 public value; }\n',
      'lib/Math.sol': '// SPDX-License-Identifier: MIT\npragma solidity ^0.8.20;\nlibrary Math2 { function twice(uint256 x) internal pure returns (uint256) { return 2 * x; } }\n',
    }
    const source = '// SPDX-License-Identifier: MIT\npragma solidity ^0.8.20;\nimport {Base} from "./Base.sol";\nimport {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";\nimport "lib/Math.sol";\ncontract Main is Base {\n  constructor() Ownable(msg.sender) {}\n  function set(uint256 x) external onlyOwner { value = Math2.twice(x); }\n}\n'
    const sources = await gatherSources('Main.sol', source, readLibrary, (path) => own[path])
    expect(Object.keys(sources).sort()).toEqual(['@openzeppelin/contracts/access/Ownable.sol', '@openzeppelin/contracts/utils/Context.sol', 'Base.sol', 'Main.sol', 'lib/Math.sol'])
    const { contracts, diagnostics } = readSolcOutput(JSON.parse(solc.compile(JSON.stringify(standardInput(sources)))), 'Main.sol', source)
    expect(diagnostics.filter((d) => d.severity === 'error')).toEqual([])
    expect(contracts.map((c) => c.name)).toEqual(['Main'])
    // A name the workspace does not have (a file renamed away) is refused, naming it.
    await expect(gatherSources('Main.sol', source, readLibrary, (path) => (path === 'Base.sol' ? undefined : own[path]))).rejects.toThrow('Main.sol imports Base.sol: not a file the playground has.')
  }, 60_000)

  test('an import of a file the playground does not have is refused, naming it', async () => {
    await expect(gatherSources('Main.sol', 'import "./Other.sol";', readLibrary)).rejects.toThrow(ImportError)
    await expect(gatherSources('Main.sol', 'import "./Other.sol";', readLibrary)).rejects.toThrow('Main.sol imports Other.sol: not a file the playground has. It ships @openzeppelin/contracts/…, hardhat/console.sol for import')
    // Of the hardhat package, only console.sol is shipped.
    await expect(gatherSources('Main.sol', 'import "hardhat/sample-projects/javascript/contracts/Lock.sol";', readLibrary)).rejects.toThrow('Main.sol imports hardhat/sample-projects/javascript/contracts/Lock.sol: not a file the playground has')
    await expect(gatherSources('Main.sol', 'import "@openzeppelin/contracts/Nope.sol";', readLibrary)).rejects.toThrow(/^Main.sol imports @openzeppelin\/contracts\/Nope.sol, which could not be read: ENOENT/)
  })
})
