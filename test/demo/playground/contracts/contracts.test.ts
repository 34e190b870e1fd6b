/**
 * The Contracts panel's logic without a browser: the examples compile cleanly with the pinned
 * solc and run on the node (mint, transfer, revert reasons, an L2→L1 message, console.log), form text becomes
 * ABI values with clear errors, and compiler positions are in the editor's characters.
 */
import { createRequire } from 'node:module'
import { describe, expect, test } from 'vitest'
import { decodeFunctionResult, encodeDeployData, encodeFunctionData, getAddress as checksum, type Abi, type AbiParameter, type Hex } from 'viem'
import { createNode } from '../../../../src/core/node.ts'
import { ArgumentError, parseArgument, parseValue } from '../../../../demo/playground/contracts/abiInput.ts'
import { decodeLog, revertReason } from '../../../../demo/playground/contracts/abiOutput.ts'
import { mainContract, readSolcOutput, standardInput, type CompiledContract } from '../../../../demo/playground/contracts/compiler.ts'
import { EXAMPLES } from '../../../../demo/playground/contracts/examples.ts'
import { SOLC_PACKAGES, SOLC_VERSIONS } from '../../../../demo/playground/contracts/solcVersions.ts'
import { gatherSources } from '../../../../demo/playground/contracts/imports.ts'
import { readLibrary } from '../../../support/solidityLibraries.ts'

/** solc-js (no type declarations): the same compiler, in Node, the worker loads in the page. */
const solc = createRequire(import.meta.url)('solc') as { compile(input: string): string }

/** With its imports gathered as the page does (the Greeter imports Hardhat's console.sol). */
async function compile(file: string, source: string) {
  return readSolcOutput(JSON.parse(solc.compile(JSON.stringify(standardInput(await gatherSources(file, source, readLibrary))))), file, source)
}

const example = async (id: string) => {
  const found = EXAMPLES.find((e) => e.id === id)!
  const { contracts, diagnostics } = await compile(found.file, found.source)
  return { ...found, contract: mainContract(contracts, found.source)!, diagnostics }
}

describe('examples', () => {
  test.each(EXAMPLES.map((e) => e.id))('%s compiles without errors or warnings', async (id) => {
    const { diagnostics, contract } = await example(id)
    expect(diagnostics).toEqual([])
    expect(contract.bytecode.length).toBeGreaterThan(2)
  })

  test('the main contract is the deployable one declared last, not the interface before it', async () => {
    expect((await example('l1-notifier')).contract.name).toBe('L1Notifier')
  })

  test('they run on the node: the supply is minted to the deployer, reverts decode, the message reaches the L2→L1 logs', async () => {
    const node = await createNode({})
    const request = <T>(method: string, params: unknown[]) => node.request({ method, params }) as Promise<T>
    const [from, to] = await request<Hex[]>('eth_accounts', [])
    const deploy = async (contract: CompiledContract, args: unknown[] = []) => {
      const hash = await request<Hex>('eth_sendTransaction', [{ from, data: encodeDeployData({ abi: contract.abi, bytecode: contract.bytecode, args }) }])
      return (await request<{ contractAddress: Hex }>('eth_getTransactionReceipt', [hash])).contractAddress
    }
    const call = (abi: Abi, address: Hex, functionName: string, args: unknown[] = []) => request<Hex>('eth_call', [{ from, to: address, data: encodeFunctionData({ abi, functionName, args }) }, 'latest'])
    const transact = async (abi: Abi, address: Hex, functionName: string, args: unknown[] = []) => {
      const hash = await request<Hex>('eth_sendTransaction', [{ from, to: address, data: encodeFunctionData({ abi, functionName, args }) }])
      return request<{ status: Hex; logs: { address: Hex; topics: Hex[]; data: Hex }[]; l2ToL1Logs: unknown[] }>('eth_getTransactionReceipt', [hash])
    }
    const failure = (promise: Promise<unknown>) => promise.then(() => expect.unreachable(), (error: { code: number; data: unknown }) => error)

    const token = await example('token')
    const tokenAddress = await deploy(token.contract, ['Playground Token', 'PLAY', BigInt(token.constructorArgs.supply)])
    expect(BigInt(await call(token.contract.abi, tokenAddress, 'balanceOf', [from]))).toBe(BigInt(token.constructorArgs.supply))
    const transfer = await transact(token.contract.abi, tokenAddress, 'transfer', [to, 250n])
    expect(transfer.status).toBe('0x1')
    expect(decodeLog(token.contract.abi, transfer.logs[0]).text).toBe(`Transfer(from: ${checksum(from)}, to: ${checksum(to)}, value: 250)`)
    // The recipient sends back one more than it holds: refused with the custom error.
    const tooMuch = await failure(request('eth_sendTransaction', [{ from: to, to: tokenAddress, data: encodeFunctionData({ abi: token.contract.abi, functionName: 'transfer', args: [from, 251n] }) }]))
    expect(tooMuch.code).toBe(3)
    expect(revertReason(token.contract.abi, tooMuch.data)).toBe(`InsufficientBalance(account: ${checksum(to)}, balance: 250, needed: 251)`)

    const counter = await example('counter')
    const counterAddress = await deploy(counter.contract)
    const zero = await failure(transact(counter.contract.abi, counterAddress, 'set', [0n]))
    expect(zero.code).toBe(3)
    expect(revertReason(counter.contract.abi, zero.data)).toBe('Counter: value must be positive')
    expect(revertReason(counter.contract.abi, (await failure(transact(counter.contract.abi, counterAddress, 'set', [2_000_000n]))).data)).toBe('TooLarge(value: 2000000, max: 1000000)')

    const notifier = await example('l1-notifier')
    const notifierAddress = await deploy(notifier.contract)
    const sent = await transact(notifier.contract.abi, notifierAddress, 'notify', ['hello L1'])
    expect(sent.status).toBe('0x1')
    expect(sent.l2ToL1Logs).toHaveLength(1)
    expect(sent.logs.map((log) => decodeLog(notifier.contract.abi, log).name)).toEqual(['L1MessageSent', 'Notified'])
    await node.close()
  })

  test('the Greeter prints with console.log in its constructor, a transaction and a view call', async () => {
    const node = await createNode({})
    const request = <T>(method: string, params: unknown[]) => node.request({ method, params }) as Promise<T>
    const calls: string[][] = []
    node.on('consoleLog', (output) => {
      if (output.kind === 'call') calls.push(output.lines)
    })
    const [from] = await request<Hex[]>('eth_accounts', [])
    const { contract, constructorArgs } = await example('greeter')
    const deployment = await request<Hex>('eth_sendTransaction', [{ from, data: encodeDeployData({ abi: contract.abi, bytecode: contract.bytecode, args: [constructorArgs.greeting_] }) }])
    expect(await request('pagenode_consoleLogs', [deployment])).toEqual(['Deploying a Greeter with greeting: Hello'])
    const address = (await request<{ contractAddress: Hex }>('eth_getTransactionReceipt', [deployment])).contractAddress
    const set = await request<Hex>('eth_sendTransaction', [{ from, to: address, data: encodeFunctionData({ abi: contract.abi, functionName: 'setGreeting', args: ['Hi'] }) }])
    expect(await request('pagenode_consoleLogs', [set])).toEqual(["Changing the greeting from 'Hello' to 'Hi'"])
    const greeting = await request<Hex>('eth_call', [{ from, to: address, data: encodeFunctionData({ abi: contract.abi, functionName: 'greet', args: ['Ada'] }) }, 'latest'])
    expect(decodeFunctionResult({ abi: contract.abi, functionName: 'greet', data: greeting })).toBe('Hi, Ada!')
    expect(calls).toEqual([[`greet(Ada) called by ${from}`]])
    await node.close()
  })
})


// The Compiler list's versions: each must take the same input (evmVersion 'prague', which an
// older solc would refuse) and compile every example cleanly. 0.8.37 deprecates the
// memory-safe-assembly comment Hardhat's console.sol still uses: a warning about that file only.
test.each(SOLC_VERSIONS)('solc %s (shipped for the Compiler list) compiles every example for Prague with no error, and no warning about the example', async (version) => {
  const shipped = createRequire(import.meta.url)(SOLC_PACKAGES[version]) as { compile(input: string): string; version(): string }
  expect(shipped.version()).toMatch(new RegExp(`^${version.replaceAll('.', '\\.')}\\+commit\\.`))
  // The code's CBOR metadata: "solc" and the version's three bytes.
  const versionTag = `64736f6c6343${version.split('.').map((part) => Number(part).toString(16).padStart(2, '0')).join('')}`
  for (const { file, source } of EXAMPLES) {
    const input = standardInput(await gatherSources(file, source, readLibrary))
    const { contracts, diagnostics } = readSolcOutput(JSON.parse(shipped.compile(JSON.stringify(input))), file, source)
    expect(diagnostics.filter((d) => d.severity === 'error' || !d.formatted.includes('--> hardhat/console.sol:')), file).toEqual([])
    expect(mainContract(contracts, source)?.bytecode, file).toContain(versionTag)
  }
})

describe('form text to ABI values', () => {
  const p = (type: string, extra: Partial<AbiParameter> = {}) => ({ name: 'x', type, ...extra }) as AbiParameter
  const reason = (type: string, text: string) => {
    try {
      parseArgument(p(type), text)
    } catch (error) {
      expect(error).toBeInstanceOf(ArgumentError)
      return (error as Error).message
    }
    return undefined
  }

  test('integers: decimal, hex, exponents and units, within the type range', () => {
    expect(parseArgument(p('uint256'), ' 42 ')).toBe(42n)
    expect(parseArgument(p('uint256'), '0x2a')).toBe(42n)
    expect(parseArgument(p('uint256'), '1.5e18')).toBe(1_500_000_000_000_000_000n)
    expect(parseArgument(p('uint256'), '1.5 ether')).toBe(1_500_000_000_000_000_000n)
    expect(parseArgument(p('uint256'), '2 gwei')).toBe(2_000_000_000n)
    expect(parseArgument(p('int8'), '-128')).toBe(-128n)
    expect(reason('uint8', '256')).toBe('out of range for uint8 (0 to 255)')
    expect(reason('uint256', '-1')).toMatch(/^out of range for uint256/)
    expect(reason('uint256', 'abc')).toMatch(/^expected a whole number ≥ 0/)
    expect(reason('uint256', '1.5e0')).toBe('1.5e0 is not a whole number')
  })

  test('addresses, booleans, bytes and strings', () => {
    expect(parseArgument(p('address'), '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266')).toBe('0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266')
    expect(reason('address', '0x1234')).toBe('expected an address: 0x and 40 hex digits')
    expect(parseArgument(p('bool'), 'TRUE')).toBe(true)
    expect(parseArgument(p('bool'), '0')).toBe(false)
    expect(reason('bool', 'yes')).toBe('expected true or false')
    expect(parseArgument(p('bytes'), '0xabcd')).toBe('0xabcd')
    expect(reason('bytes', '0xabc')).toMatch(/even number of hex digits/)
    expect(reason('bytes4', '0xabcd')).toBe('expected 4 bytes: 0x and 8 hex digits')
    // A string is taken as typed, spaces included.
    expect(parseArgument(p('string'), ' hi ')).toBe(' hi ')
  })

  test('arrays and tuples as JSON, with the failing element named', () => {
    expect(parseArgument(p('uint256[]'), '["1", 2, "0x3"]')).toEqual([1n, 2n, 3n])
    expect(parseArgument(p('bool[2]'), '[true, false]')).toEqual([true, false])
    expect(reason('uint256[2]', '[1]')).toBe('uint256[2] needs exactly 2 elements, got 1')
    expect(reason('address[]', '["0x12"]')).toBe('element 0: expected an address: 0x and 40 hex digits')
    expect(reason('uint256[]', '1, 2')).toBe('expected a JSON array, e.g. ["1", "2"]')
    expect(reason('uint256[]', '[12345678901234567890]')).toMatch(/loses precision/)
    const tuple = p('tuple', { components: [{ name: 'to', type: 'address' }, { name: 'amount', type: 'uint256' }] } as Partial<AbiParameter>)
    const to = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8'
    expect(parseArgument(tuple, `["${to}", "5"]`)).toEqual({ to, amount: 5n })
    expect(parseArgument(tuple, `{"to": "${to}", "amount": 5}`)).toEqual({ to, amount: 5n })
  })

  test('the value field is ether', () => {
    expect(parseValue('')).toBe(0n)
    expect(parseValue('0.5')).toBe(500_000_000_000_000_000n)
    expect(() => parseValue('-1')).toThrow('expected an amount of ether, e.g. 0.5')
  })
})

describe('compiler messages', () => {
  test('positions are lines and columns of the text as edited, non-ASCII before them included', async () => {
    const source = '// SPDX-License-Identifier: MIT\npragma solidity ^0.8.24;\n// héllo wörld ✓\ncontract A {\n    uint x = 1\n}\n'
    const { diagnostics, contracts } = await compile('A.sol', source)
    expect(contracts).toEqual([])
    expect(diagnostics).toHaveLength(1)
    const [error] = diagnostics
    expect(error).toMatchObject({ severity: 'error', kind: 'ParserError', line: 6, column: 1 })
    expect(source.slice(error.start, error.end)).toBe('}')
  })

  test('errors come before warnings', async () => {
    const source = 'pragma solidity ^0.8.24;\ncontract A { function f() public { uint unused; } function g() public { undefinedName(); } }\n'
    const { diagnostics } = await compile('A.sol', source)
    expect(diagnostics.map((d) => d.severity)).toEqual(['error', 'warning'])
  })
})
