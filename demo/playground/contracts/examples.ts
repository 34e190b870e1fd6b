/** The Solidity examples the panel offers, with constructor arguments to start from. */
import counter from './examples/Counter.sol?raw'
import gaslessPaymaster from './examples/GaslessPaymaster.sol?raw'
import greeter from './examples/Greeter.sol?raw'
import l1Notifier from './examples/L1Notifier.sol?raw'
import token from './examples/Token.sol?raw'

export interface Example {
  id: string
  /** The file name solc sees (and shows in its messages). */
  file: string
  title: string
  source: string
  /** Constructor arguments filled in after compiling, by parameter name. */
  constructorArgs: Record<string, string>
}

export const EXAMPLES: readonly Example[] = [
  {
    id: 'token',
    file: 'Token.sol',
    title: 'ERC-20 token (supply minted to the deployer)',
    source: token,
    // One million tokens of 18 decimals.
    constructorArgs: { name_: 'Playground Token', symbol_: 'PLAY', supply: '1000000000000000000000000' },
  },
  { id: 'counter', file: 'Counter.sol', title: 'Counter (require reasons, a custom error, a payable function)', source: counter, constructorArgs: {} },
  { id: 'greeter', file: 'Greeter.sol', title: 'Greeter (console.log in the constructor, a transaction and a view)', source: greeter, constructorArgs: { greeting_: 'Hello' } },
  { id: 'l1-notifier', file: 'L1Notifier.sol', title: 'L2→L1 message sender (calls the L1Messenger at 0x…8008)', source: l1Notifier, constructorArgs: {} },
  { id: 'gasless-paymaster', file: 'GaslessPaymaster.sol', title: 'Gasless with a paymaster (pays the fee of writes that name it)', source: gaslessPaymaster, constructorArgs: {} },
]
