/**
 * The Contracts panel: Solidity compiled in the page (solc in its worker), deployed from a dev
 * account, then called and transacted through the forms built from the ABI. Loading and running
 * the 9 MB compiler takes seconds on a small machine: the timeouts are generous.
 */
import { expect, test, type Locator, type Page } from '@playwright/test'
import { toEventSelector } from 'viem'
import { DEV, offlineStatus, openPlayground, rpc } from './support/playground.ts'

const COMPILE_TIMEOUT = 120_000
const SUPPLY = '1000000000000000000000000'

test.describe.configure({ timeout: 240_000 })

/** Compiles what is in the editor and waits for the summary line. */
async function compile(panel: Locator): Promise<void> {
  await panel.getByTestId('compile').click()
  await expect(panel.getByTestId('compile-summary')).toBeVisible({ timeout: COMPILE_TIMEOUT })
}

/** Deploys the compiled contract with the default arguments; returns its card. */
async function deploy(panel: Locator, name: string): Promise<Locator> {
  const deploySection = panel.getByTestId('deploy')
  await expect(deploySection.getByLabel('Contract', { exact: true })).toHaveValue(name)
  await deploySection.getByRole('button', { name: 'Deploy' }).click()
  const result = deploySection.getByTestId('deploy-result')
  await expect(result.getByTestId('tx-status')).toHaveText('success')
  const address = (await result.getByTestId('contract-address').textContent())!.trim().toLowerCase()
  expect(address).toMatch(/^0x[0-9a-f]{40}$/)
  const card = panel.locator(`[data-testid="deployment"][data-address="${address}"]`)
  await expect(card.getByRole('heading', { level: 4 })).toContainText(name)
  return card
}

function contractsPanel(page: Page): Locator {
  return page.getByTestId('panel-contracts')
}

test('compile, deploy and call the ERC-20: the deployer holds the supply, a transfer moves tokens, the list survives a reload', async ({ page }) => {
  await openPlayground(page, 'contracts')
  const panel = contractsPanel(page)
  await expect(panel.getByTestId('example')).toHaveValue('token')
  await compile(panel)
  await expect(panel.getByTestId('compile-summary')).toHaveText(/^Compiled in [\d.]+ s: PlaygroundToken\.$/)
  await expect(panel.getByTestId('compiler-status')).toHaveText(/^solc 0\.8\.28\+commit\.\w+.* · EVM prague$/)

  // The example's constructor arguments are filled in.
  const deploySection = panel.getByTestId('deploy')
  await expect(deploySection.getByLabel('name_ (string)')).toHaveValue('Playground Token')
  await expect(deploySection.getByLabel('supply (uint256)')).toHaveValue(SUPPLY)
  const token = await deploy(panel, 'PlaygroundToken')
  // Deploying minted the supply to the deployer: the Transfer event from the zero address.
  await expect(deploySection.getByTestId('events')).toContainText(`Transfer(from: 0x0000000000000000000000000000000000000000, to: ${DEV[0].address}`.toLowerCase(), { ignoreCase: true })

  const balanceOf = token.getByTestId('fn-balanceOf')
  await balanceOf.getByLabel('account').fill(DEV[0].address)
  await balanceOf.getByRole('button', { name: 'Call' }).click()
  await expect(balanceOf.getByTestId('value')).toHaveText(SUPPLY)

  const name = token.getByTestId('fn-name')
  await name.getByRole('button', { name: 'Call' }).click()
  await expect(name.getByTestId('value')).toHaveText('Playground Token')

  // A bad argument is refused where it was typed, before anything is sent.
  const transfer = token.getByTestId('fn-transfer')
  await transfer.getByLabel('to (address)').fill('0x1234')
  await transfer.getByLabel('value (uint256)').fill('250')
  await transfer.getByRole('button', { name: 'Send', exact: true }).click()
  await expect(transfer.getByRole('alert')).toHaveText('expected an address: 0x and 40 hex digits')
  await expect(transfer.getByLabel('to (address)')).toBeFocused()

  await transfer.getByLabel('to (address)').fill(DEV[1].address)
  await transfer.getByRole('button', { name: 'Send', exact: true }).click()
  const outcome = transfer.getByTestId('result')
  await expect(outcome.getByTestId('tx-status')).toHaveText('success')
  await expect(transfer.getByRole('alert')).toHaveCount(0)
  await expect(outcome.getByTestId('events')).toContainText(`Transfer(from: ${DEV[0].address}, to: ${DEV[1].address}, value: 250)`, { ignoreCase: true })
  await expect(outcome.getByTestId('gas-used')).toHaveText(/^[\d,]+$/)
  await expect(outcome.getByTestId('returned')).toContainText('true')
  // The hash links to its trace; the node has the transaction.
  const traceHref = await outcome.getByTestId('trace-link').getAttribute('href')
  expect(traceHref).toMatch(/^#traces\/0x[0-9a-f]{64}$/)
  const receipt = await rpc<{ status: string }>(page, 'eth_getTransactionReceipt', traceHref!.slice('#traces/'.length))
  expect(receipt.status).toBe('0x1')

  await balanceOf.getByLabel('account').fill(DEV[1].address)
  await balanceOf.getByRole('button', { name: 'Call' }).click()
  await expect(balanceOf.getByTestId('value')).toHaveText('250')

  // The chain is in IndexedDB and the list of contracts in localStorage: both come back.
  await page.reload()
  await expect(page.getByTestId('status')).toHaveText(/^node ready/, { timeout: 30_000 })
  const again = contractsPanel(page).getByTestId('deployment')
  await expect(again).toHaveCount(1)
  const balanceAfterReload = again.getByTestId('fn-balanceOf')
  await balanceAfterReload.getByLabel('account').fill(DEV[1].address)
  await balanceAfterReload.getByRole('button', { name: 'Call' }).click()
  await expect(balanceAfterReload.getByTestId('value')).toHaveText('250')

  // Other panels link to a contract as #contracts/<address>: its card gets the focus.
  const address = await again.getAttribute('data-address')
  await page.getByTestId('tab-accounts').click()
  await page.evaluate((a) => (location.hash = `#contracts/${a}`), address)
  await expect(again).toBeFocused()
})

test('a compiler error is shown with its line and column, and leads to the spot in the source', async ({ page }) => {
  await openPlayground(page, 'contracts')
  const panel = contractsPanel(page)
  const source = panel.getByLabel('Solidity source')
  await source.fill(['// SPDX-License-Identifier: MIT', 'pragma solidity ^0.8.24;', '', 'contract Broken {', '    function one() external pure returns (uint256) {', '        return 1', '    }', '}', ''].join('\n'))
  await compile(panel)
  await expect(panel.getByTestId('compile-summary')).toHaveText('Compilation failed: 1 error.')
  const diagnostic = panel.getByTestId('diagnostic')
  await expect(diagnostic).toHaveCount(1)
  await expect(diagnostic).toHaveAttribute('data-line', '7')
  await expect(diagnostic).toContainText("7:5 ParserError: Expected ';' but got '}'")
  await expect(panel.getByTestId('deploy')).toBeHidden()

  await diagnostic.getByRole('button', { name: 'Go to line 7, column 5' }).click()
  await expect(source).toBeFocused()
  await expect(panel.getByTestId('caret')).toHaveText('line 7, column 5')

  // Tab indents in the editor instead of leaving it.
  await source.press('End')
  await source.press('Tab')
  await expect(source).toBeFocused()
  expect(await source.inputValue()).toContain('    }    \n}')
})

test('a revert shows its decoded reason and the JSON-RPC code', async ({ page }) => {
  await openPlayground(page, 'contracts')
  const panel = contractsPanel(page)
  await panel.getByTestId('example').selectOption('counter')
  await compile(panel)
  await expect(panel.getByTestId('compile-summary')).toHaveText(/^Compiled in [\d.]+ s: Counter\.$/)
  const counter = await deploy(panel, 'Counter')

  const set = counter.getByTestId('fn-set')
  await set.getByLabel('value (uint256)').fill('0')
  await set.getByRole('button', { name: 'Send', exact: true }).click()
  await expect(set.getByTestId('revert-reason')).toHaveText('Reverted: Counter: value must be positive')
  const error = set.getByRole('alert')
  await expect(error).toHaveAttribute('data-code', '3')
  await expect(error).toContainText('error 3: execution reverted')

  // A custom error, decoded from the ABI with its arguments.
  await set.getByLabel('value (uint256)').fill('2000000')
  await set.getByRole('button', { name: 'Send', exact: true }).click()
  await expect(set.getByTestId('revert-reason')).toHaveText('Reverted: TooLarge(value: 2000000, max: 1000000)')
  await expect(set.getByRole('alert')).toHaveAttribute('data-code', '3')

  // Sent anyway, with a gas limit of its own: mined as a failed transaction, with its reason.
  await set.getByTestId('send-anyway-gas').fill('200000')
  await set.getByTestId('send-anyway').click()
  const failed = set.getByTestId('result')
  await expect(failed.getByTestId('tx-status')).toHaveText('reverted')
  await expect(failed.getByTestId('revert-reason')).toHaveText('TooLarge(value: 2000000, max: 1000000)')
  const failedHash = (await failed.getByTestId('trace-link').getAttribute('href'))!.split('/')[1]
  const receipt = await rpc<{ status: string; gasUsed: string }>(page, 'eth_getTransactionReceipt', failedHash)
  expect(receipt.status).toBe('0x0')
  await failed.getByTestId('trace-link').click()
  // The trace names the custom error with its arguments, from the ABI compiled in this page.
  await expect(page.getByTestId('panel-traces').getByTestId('revert-reason').first()).toHaveText('custom error TooLarge(value: 2000000, max: 1000000)')
  await expect(page.getByTestId('panel-traces').getByTestId('decoded-call').first()).toHaveText('set(value: 2000000)')
  await page.goBack()

  // A value that is fine goes through; a view reads it back.
  await set.getByLabel('value (uint256)').fill('42')
  await set.getByRole('button', { name: 'Send', exact: true }).click()
  await expect(set.getByTestId('tx-status')).toHaveText('success')
  const count = counter.getByTestId('fn-count')
  await count.getByRole('button', { name: 'Call' }).click()
  await expect(count.getByTestId('value')).toHaveText('42')

  // A payable function takes ether.
  const tip = counter.getByTestId('fn-tip')
  await tip.getByLabel('Value (ETH)').fill('0.5')
  await tip.getByRole('button', { name: 'Send', exact: true }).click()
  await expect(tip.getByTestId('events')).toContainText('Tipped(by: ')
  await expect(tip.getByTestId('events')).toContainText('amount: 500000000000000000)')
})

test('a contract sends an L2→L1 message through the L1Messenger', async ({ page }) => {
  await openPlayground(page, 'contracts')
  const panel = contractsPanel(page)
  await panel.getByTestId('example').selectOption('l1-notifier')
  await compile(panel)
  const notifier = await deploy(panel, 'L1Notifier')
  const notify = notifier.getByTestId('fn-notify')
  await notify.getByLabel('text (string)').fill('hello L1')
  await notify.getByRole('button', { name: 'Send', exact: true }).click()
  const outcome = notify.getByTestId('result')
  await expect(outcome.getByTestId('tx-status')).toHaveText('success')
  await expect(outcome.getByTestId('events')).toContainText('L1MessageSent(_sender: ')
  await expect(outcome.getByTestId('events')).toContainText('Notified(by: ')
  await expect(outcome.getByTestId('l2-to-l1')).toHaveText(/^1 · /)
  const sent = notifier.getByTestId('fn-sent')
  await sent.getByRole('button', { name: 'Call' }).click()
  await expect(sent.getByTestId('value')).toHaveText('1')

  // The message, sent by the contract rather than an account, is proven like any other.
  await outcome.getByTestId('l2-to-l1').getByRole('link').click()
  const detail = page.getByTestId('panel-messages').getByTestId('message-detail')
  await expect(detail.getByTestId('message-text')).toContainText('hello L1')
  await expect(detail.getByTestId('verdict')).toHaveAttribute('data-verified', 'true')
})

test('a contract importing OpenZeppelin Contracts (shipped with the site) compiles and deploys; an unknown import is named', async ({ page }) => {
  await openPlayground(page, 'contracts')
  const panel = contractsPanel(page)
  const source = panel.getByTestId('source')
  await source.fill('// SPDX-License-Identifier: MIT\npragma solidity ^0.8.20;\nimport "./Missing.sol";\n')
  await panel.getByTestId('compile').click()
  await expect(panel.getByTestId('compile-error')).toContainText('imports Missing.sol: not a file the playground has. It ships @openzeppelin/contracts/…', { timeout: COMPILE_TIMEOUT })

  await source.fill(
    [
      '// SPDX-License-Identifier: MIT',
      'pragma solidity ^0.8.20;',
      'import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";',
      'import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";',
      'contract Coin is ERC20, Ownable {',
      '    constructor() ERC20("Coin", "COIN") Ownable(msg.sender) { _mint(msg.sender, 1000); }',
      '}',
      '',
    ].join('\n'),
  )
  await compile(panel)
  await expect(panel.getByTestId('compile-summary')).toHaveText(/^Compiled in [\d.]+ s: Coin\.$/)
  const coin = await deploy(panel, 'Coin')
  const balanceOf = coin.getByTestId('fn-balanceOf')
  await balanceOf.getByLabel('account').fill(DEV[0].address)
  await balanceOf.getByRole('button', { name: 'Call' }).click()
  await expect(balanceOf.getByTestId('value')).toHaveText('1000')
  await expect(coin.getByTestId('fn-owner')).toBeVisible()
})

test("console.log: the Greeter's lines (Hardhat's console.sol, shipped with the site) show under its deployment, a transaction, a view call and in the explorer", async ({ page }) => {
  await openPlayground(page, 'contracts')
  const panel = contractsPanel(page)
  await panel.getByTestId('example').selectOption('greeter')
  await expect(panel.getByTestId('source')).toHaveValue(/import "hardhat\/console.sol";/)
  await compile(panel)
  await expect(panel.getByTestId('compile-summary')).toHaveText(/^Compiled in [\d.]+ s: Greeter\.$/)
  await expect(panel.getByTestId('deploy').getByLabel('greeting_ (string)')).toHaveValue('Hello')
  const greeter = await deploy(panel, 'Greeter')
  await expect(panel.getByTestId('deploy-result').getByTestId('console-line')).toHaveText(['Deploying a Greeter with greeting: Hello'])

  // A transaction: the lines the node kept with it (pagenode_consoleLogs).
  const setGreeting = greeter.getByTestId('fn-setGreeting')
  await setGreeting.getByLabel('greeting_ (string)').fill('Hi')
  await setGreeting.getByRole('button', { name: 'Send' }).click()
  await expect(setGreeting.getByTestId('tx-status')).toHaveText('success')
  await expect(setGreeting.getByTestId('console-line')).toHaveText(["Changing the greeting from 'Hello' to 'Hi'"])

  // A view call: the lines told by the provider's consoleLog event while it ran, under its result.
  const greet = greeter.getByTestId('fn-greet')
  await greet.getByLabel('name (string)').fill('Ada')
  await greet.getByRole('button', { name: 'Call' }).click()
  await expect(greet.getByTestId('value')).toHaveText('Hi, Ada!')
  await expect(greet.getByTestId('console-line')).toHaveText([`greet(Ada) called by ${DEV[0].address}`])
  // A function that prints nothing shows no console box.
  const greeting = greeter.getByTestId('fn-greeting')
  await greeting.getByRole('button', { name: 'Call' }).click()
  await expect(greeting.getByTestId('value')).toHaveText('Hi')
  await expect(greeting.getByTestId('console-log')).toHaveCount(0)

  // The explorer's view of the transaction shows them too.
  await setGreeting.getByTestId('tx').getByRole('link').first().click()
  const view = page.getByTestId('panel-explorer').getByTestId('transaction-view')
  await expect(view.getByTestId('transaction-status')).toHaveText('success')
  await expect(view.getByTestId('transaction-console-log').getByTestId('console-line')).toHaveText(["Changing the greeting from 'Hello' to 'Hi'"])
  // A transaction that printed nothing has no console.log section.
  const hash = await rpc<string>(page, 'eth_sendTransaction', { from: DEV[0].address, to: DEV[1].address, value: '0x1' })
  await page.goto(`/#explorer/${hash}`)
  await expect(view.getByTestId('transaction-status')).toHaveText('success')
  await expect(view.getByTestId('transaction-console-log')).toHaveCount(0)
})

test('files: your own files beside the examples, importing one another; new, rename, delete with undo; kept across a reload', async ({ page }) => {
  await openPlayground(page, 'contracts')
  const panel = contractsPanel(page)
  const source = panel.getByTestId('source')
  const files = panel.getByTestId('example')
  const fileName = panel.getByTestId('file-name')
  const BASE = '// SPDX-License-Identifier: MIT\npragma solidity ^0.8.24;\nabstract contract Base {\n    function greeting() external pure returns (string memory) { return "from Base"; }\n}\n'
  const MAIN = '// SPDX-License-Identifier: MIT\npragma solidity ^0.8.24;\nimport {Base} from "./Base.sol";\ncontract Main is Base {}\n'

  // Names are checked before anything is made.
  await fileName.fill('Base.txt')
  await panel.getByTestId('file-new').click()
  await expect(panel.getByTestId('file-problem')).toHaveText(/^"Base\.txt" is not a file name/)
  await fileName.fill('Token.sol')
  await panel.getByTestId('file-new').click()
  await expect(panel.getByTestId('file-problem')).toHaveText('Token.sol exists already')

  await fileName.fill('Base.sol')
  await panel.getByTestId('file-new').click()
  await expect(files).toHaveValue('file:Base.sol')
  await expect(source).toHaveValue(/^\/\/ SPDX-License-Identifier: MIT\npragma solidity/)
  await source.fill(BASE)
  await fileName.fill('Main.sol')
  await panel.getByTestId('file-new').click()
  await expect(files).toHaveValue('file:Main.sol')
  await source.fill(MAIN)
  await compile(panel)
  await expect(panel.getByTestId('compile-summary')).toHaveText(/^Compiled in [\d.]+ s: Main\.$/)
  const main = await deploy(panel, 'Main')
  await main.getByTestId('fn-greeting').getByRole('button', { name: 'Call' }).click()
  await expect(main.getByTestId('fn-greeting').getByTestId('value')).toHaveText('from Base')

  // An example is its own entry: opening one leaves your files as they are.
  await files.selectOption('token')
  await expect(source).toHaveValue(/contract PlaygroundToken/)
  await files.selectOption('file:Main.sol')
  await expect(source).toHaveValue(MAIN)

  // Renamed away, Base.sol is no longer there to import: the compile names it.
  await files.selectOption('file:Base.sol')
  await fileName.fill('Parent.sol')
  await panel.getByTestId('file-rename').click()
  await expect(files).toHaveValue('file:Parent.sol')
  await expect(source).toHaveValue(BASE)
  await files.selectOption('file:Main.sol')
  await panel.getByTestId('compile').click()
  await expect(panel.getByTestId('compile-error')).toContainText('Main.sol imports Base.sol: not a file the playground has', { timeout: COMPILE_TIMEOUT })

  // Delete, then Undo: the file comes back as it was.
  await files.selectOption('file:Parent.sol')
  await panel.getByTestId('file-delete').click()
  await expect(panel.getByTestId('file-deleted')).toContainText('Parent.sol deleted')
  await expect(files.locator('option[value="file:Parent.sol"]')).toHaveCount(0)
  await expect(panel.getByTestId('file-undo')).toBeFocused()
  await panel.getByTestId('file-undo').click()
  await expect(files).toHaveValue('file:Parent.sol')
  await expect(source).toHaveValue(BASE)
  await expect(panel.getByTestId('file-deleted')).toBeHidden()

  // Kept in IndexedDB across a reload.
  await page.reload()
  await expect(page.getByTestId('status')).toHaveText(/ready/, { timeout: 30_000 })
  await files.selectOption('file:Main.sol')
  await expect(source).toHaveValue(MAIN)
  await expect(files.locator('option[value^="file:"]')).toHaveText(['Main.sol', 'Parent.sol'])
})

test('a choice of compiler: solc 0.8.37 is loaded when chosen, compiles what is deployed, stays chosen after a reload, and works offline once used', async ({ page, context }) => {
  await openPlayground(page, 'contracts')
  const panel = contractsPanel(page)
  const compiler = panel.getByLabel('Compiler', { exact: true })
  const status = panel.getByTestId('compiler-status')
  await expect(compiler).toHaveValue('0.8.28')
  await compiler.selectOption('0.8.37')
  await expect(status).toHaveText(/^solc 0\.8\.37\+commit\.\w+.* · EVM prague$/, { timeout: COMPILE_TIMEOUT })
  await compile(panel)
  await expect(panel.getByTestId('compile-summary')).toHaveText(/^Compiled in [\d.]+ s: PlaygroundToken\.$/)
  const token = await deploy(panel, 'PlaygroundToken')
  // The deployed code is 0.8.37's: its CBOR metadata ends with `solc` and the version's three bytes.
  const code = await rpc<string>(page, 'eth_getCode', await token.getAttribute('data-address'), 'latest')
  expect(code).toMatch(/64736f6c6343000825[0-9a-f]{4}$/)

  // The service worker kept the compiler it fetched (it is not precached): offline, a reload
  // finds the choice and loads that compiler from the cache.
  await expect.poll(async () => (await offlineStatus(page)).keptOnUse).toHaveLength(1)
  await context.setOffline(true)
  await page.reload()
  await expect(page.getByTestId('status')).toHaveText(/ready/, { timeout: 30_000 })
  await expect(compiler).toHaveValue('0.8.37')
  await expect(status).toHaveText(/^solc 0\.8\.37\+commit\.\w+.* · EVM prague$/, { timeout: COMPILE_TIMEOUT })
  await compile(panel)
  await expect(panel.getByTestId('compile-summary')).toHaveText(/^Compiled in [\d.]+ s: PlaygroundToken\.$/)
})

test('gasless with a paymaster: the example paymaster, funded, pays for a write from an account with no ETH', async ({ page }) => {
  await openPlayground(page, 'contracts')
  const panel = contractsPanel(page)
  await panel.getByTestId('example').selectOption('gasless-paymaster')
  await compile(panel)
  const paymaster = await deploy(panel, 'GaslessPaymaster')
  const paymasterAddress = (await paymaster.getAttribute('data-address'))!
  await rpc(page, 'eth_sendTransaction', { from: DEV[0].address, to: paymasterAddress, value: '0xde0b6b3a7640000' })

  await panel.getByTestId('example').selectOption('counter')
  await compile(panel)
  const counter = await deploy(panel, 'Counter')
  // Account 3 of the dev mnemonic, emptied: it could not pay a fee itself.
  const gasless = '0x90f79bf6eb2c4f870365e785982e1f101e93b906'
  await rpc(page, 'anvil_setBalance', gasless, '0x0')
  const balance = async (address: string) => BigInt(await rpc<string>(page, 'eth_getBalance', address, 'latest'))
  const before = await balance(paymasterAddress)
  expect(before).toBe(10n ** 18n)

  await counter.getByLabel('Send from').selectOption(gasless)
  await counter.getByLabel('Paid by paymaster at (optional)').fill(paymasterAddress)
  const increment = counter.getByTestId('fn-increment')
  await increment.getByRole('button', { name: 'Send', exact: true }).click()
  const outcome = increment.getByTestId('result')
  await expect(outcome.getByTestId('tx-status')).toHaveText('success')
  // The paymaster's Paid event is among the transaction's logs (the card decodes the Counter's ABI only).
  await expect(outcome.getByTestId('events')).toContainText(`topic ${toEventSelector('Paid(address,uint256)')} from ${paymasterAddress.slice(0, 8)}`)
  await expect(outcome.getByTestId('events')).toContainText(new RegExp(`Incremented\\(by: ${gasless}, count: 1\\)`, 'i'))
  const hash = (await outcome.getByRole('link').first().getAttribute('href'))!.split('/').pop()!
  const transaction = await rpc<{ type: string; from: string }>(page, 'eth_getTransactionByHash', hash)
  expect(transaction).toMatchObject({ type: '0x71', from: gasless })

  // The paymaster paid the fee; the account still has nothing, and the write happened.
  const receipt = await rpc<{ gasUsed: string; effectiveGasPrice: string }>(page, 'eth_getTransactionReceipt', hash)
  expect(before - (await balance(paymasterAddress))).toBe(BigInt(receipt.gasUsed) * BigInt(receipt.effectiveGasPrice))
  expect(await balance(gasless)).toBe(0n)
  const count = counter.getByTestId('fn-count')
  await count.getByRole('button', { name: 'Call' }).click()
  await expect(count.getByTestId('value')).toHaveText('1')
  const paid = paymaster.getByTestId('fn-paid')
  await paid.getByRole('button', { name: 'Call' }).click()
  await expect(paid.getByTestId('value')).toHaveText('1')

  // A paymaster field that is not an address is refused before anything is signed.
  await counter.getByLabel('Paid by paymaster at (optional)').fill('0x12')
  await increment.getByRole('button', { name: 'Send', exact: true }).click()
  await expect(outcome).toContainText('Paid by paymaster at: An address has 40 hex digits')
})
