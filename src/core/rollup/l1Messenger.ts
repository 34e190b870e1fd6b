import type { PrefixedHexString } from '@ethereumjs/util'

/** ZKsync's L1Messenger system contract: `sendToL1(bytes)` sends a message to L1. */
export const L1_MESSENGER_ADDRESS: PrefixedHexString = '0x0000000000000000000000000000000000008008'

/** keccak256("L1MessageSent(address,bytes32,bytes)"): the event every message leaves behind. */
export const L1_MESSAGE_SENT_TOPIC: PrefixedHexString = '0x3a36e47291f4201faf137fab081d92295bce2d53be2c6ca68ba82c7faa9ce241'

/**
 * Runtime bytecode of L1Messenger.sol (next to this file) compiled by the pinned solc with the
 * fixtures' settings (optimizer 200 runs, cancun); test/core/rollup/l1Messenger.test.ts recompiles
 * the source and fails when this drifts. It is EVM code installed at genesis, so messages, gas,
 * events and traces all come out of ordinary execution.
 */
export const L1_MESSENGER_RUNTIME: PrefixedHexString =
  '0x608060405234801561000f575f5ffd5b5060043610610029575f3560e01c806362f84b241461002d575b5f5ffd5b61004061003b3660046100b7565b610052565b60405190815260200160405180910390f35b5f8282604051610063929190610125565b6040518091039020905080336001600160a01b03167f3a36e47291f4201faf137fab081d92295bce2d53be2c6ca68ba82c7faa9ce24185856040516100a9929190610134565b60405180910390a392915050565b5f5f602083850312156100c8575f5ffd5b823567ffffffffffffffff8111156100de575f5ffd5b8301601f810185136100ee575f5ffd5b803567ffffffffffffffff811115610104575f5ffd5b856020828401011115610115575f5ffd5b6020919091019590945092505050565b818382375f9101908152919050565b60208152816020820152818360408301375f818301604090810191909152601f909201601f1916010191905056fea2646970667358221220d9dccef165eef737ce022e89a8123885f96fc805d87cac24dc7ebccfcb28dbb364736f6c634300081c0033'

