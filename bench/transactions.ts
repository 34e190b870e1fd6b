/**
 * The signed transactions every workload sends, made once before any timing (signing is the
 * client's cost, not the node's). Every chain a workload starts is fresh, so the same lists,
 * nonces from 0, serve every run, the floors and both halves.
 */
import { createFeeMarket1559Tx } from '@ethereumjs/tx'
import { bytesToHex, hexToBytes, type PrefixedHexString } from '@ethereumjs/util'
import { Interface } from 'ethers'
import artifacts from '../test/contracts/artifacts.json' with { type: 'json' }
import { createChainCommon } from '../src/core/exec/chainCommon.ts'
import { CHAIN_ID, GAS_PRICE, KEY } from './floors.ts'

export const token = new Interface(artifacts.Token.abi)
const common = createChainCommon(CHAIN_ID)
const key = hexToBytes(KEY as PrefixedHexString)

function sign(nonce: number, fields: { to?: string; gasLimit: bigint; value?: bigint; data?: string }): string {
  const tx = createFeeMarket1559Tx(
    {
      chainId: BigInt(CHAIN_ID),
      nonce: BigInt(nonce),
      maxFeePerGas: GAS_PRICE,
      maxPriorityFeePerGas: 0n,
      gasLimit: fields.gasLimit,
      to: fields.to as PrefixedHexString | undefined,
      value: fields.value ?? 0n,
      data: (fields.data ?? '0x') as PrefixedHexString,
    },
    { common },
  )
  return bytesToHex(tx.sign(key).serialize())
}

const address = (n: number) => `0x${n.toString(16).padStart(40, '0')}`

/** ETH transfers of 1 wei to distinct new accounts, nonces 0.. */
export function transfers(count: number): string[] {
  return Array.from({ length: count }, (_, i) => sign(i, { to: address(0x1000 + i), gasLimit: 21_000n, value: 1n }))
}

/** The Token deployment (nonce 0) and its address. */
export function tokenDeployment(): { raw: string; address: string } {
  const raw = sign(0, {
    gasLimit: 2_000_000n,
    data: artifacts.Token.bytecode + token.encodeDeploy(['Bench', 'B', 10n ** 30n]).slice(2),
  })
  // CREATE from the sender at nonce 0.
  return { raw, address: '0x' + CREATE_0_ADDRESS }
}

/** ERC-20 transfers of 1 unit to distinct new holders, nonces 1.. (after the deployment). */
export function tokenTransfers(count: number, tokenAddress: string): string[] {
  return Array.from({ length: count }, (_, i) =>
    sign(i + 1, { to: tokenAddress, gasLimit: 100_000n, data: token.encodeFunctionData('transfer', [address(0x2000 + i), 1n]) }),
  )
}

/** keccak(rlp([0xf39f…2266, 0]))[12:]: the first contract the first dev account creates. */
const CREATE_0_ADDRESS = '5fbdb2315678afecb367f032d93f642f64180aa3'
