import { TransactionType } from '@ethereumjs/tx'
import { bigIntToHex, bigIntToBytes, concatBytes, setLengthLeft } from '@ethereumjs/util'
import { bytesToHex } from '../hexText.ts'
import { maxFeePerGas, maxPriorityFeePerGas } from '../chain/admission.ts'
import type { TransactionRecord } from '../chain/records.ts'
import { transactionBytes, transactionType } from '../exec/rawTransaction.ts'
import { EIP712_TX_TYPE } from './eip712Hash.ts'
import { GAS_PER_PUBDATA_LIMIT } from './feeModel.ts'

/** era's TransactionType names (EIP-7702 has none in era: named after its siblings). */
const TYPE_NAMES: Record<number, string> = {
  [TransactionType.Legacy]: 'LegacyTransaction',
  [TransactionType.AccessListEIP2930]: 'EIP2930Transaction',
  [TransactionType.FeeMarketEIP1559]: 'EIP1559Transaction',
  [TransactionType.EOACodeEIP7702]: 'EIP7702Transaction',
  [EIP712_TX_TYPE]: 'EIP712Transaction',
}

const bytesArray = (bytes: Uint8Array) => Array.from(bytes)

/**
 * The signature era stores for an L2 transaction: a 0x71 transaction's own (custom) signature,
 * else r‖s‖v packed with v as 27/28 (`PackedEthSignature::serialize_packed`).
 */
function packedSignature(record: TransactionRecord): Uint8Array {
  if (record.eip712) return record.eip712.signature
  const { tx } = record
  const v = tx.v!
  const parity = tx.type !== TransactionType.Legacy ? v : v >= 35n ? (v - 35n) % 2n : v - 27n
  return concatBytes(setLengthLeft(bigIntToBytes(tx.r!), 32), setLengthLeft(bigIntToBytes(tx.s!), 32), new Uint8Array([Number(parity) + 27]))
}

/**
 * One element of zks_getRawBlockTransactions: era's `zksync_types::Transaction` for an L2
 * transaction (docs/zksync.md, "Response shapes"), snake_case at the top, camelCase inside, byte
 * vectors as arrays of numbers, the fee object in snake_case.
 */
export function rawBlockTransaction(record: TransactionRecord) {
  const { tx, eip712 } = record
  const raw = transactionBytes(record)
  return {
    common_data: {
      L2: {
        nonce: Number(tx.nonce),
        fee: {
          gas_limit: bigIntToHex(tx.gasLimit),
          max_fee_per_gas: bigIntToHex(maxFeePerGas(tx)),
          max_priority_fee_per_gas: bigIntToHex(maxPriorityFeePerGas(tx)),
          gas_per_pubdata_limit: bigIntToHex(eip712?.gasPerPubdata ?? GAS_PER_PUBDATA_LIMIT),
        },
        initiatorAddress: record.from,
        signature: bytesArray(packedSignature(record)),
        transactionType: TYPE_NAMES[transactionType(record)],
        input: { hash: record.hash, data: bytesArray(raw) },
        paymasterParams: {
          paymaster: eip712?.paymaster?.address ?? '0x0000000000000000000000000000000000000000',
          paymasterInput: bytesArray(eip712?.paymaster?.input ?? new Uint8Array()),
        },
      },
    },
    execute: {
      contractAddress: tx.to?.toString() ?? null,
      calldata: bytesToHex(tx.data),
      value: bigIntToHex(tx.value),
      factoryDeps: (eip712?.factoryDeps ?? []).map(bytesArray),
    },
    received_timestamp_ms: record.receivedAtMs,
    raw_bytes: bytesToHex(raw),
  }
}
