/**
 * The contract size limit, which tests of large contracts need lifted (anvil's
 * --code-size-limit / --disable-code-size-limit, Hardhat's allowUnlimitedContractSize). Ethereum's
 * are EIP-170's 24,576 bytes of deployed code and EIP-3860's 49,152 bytes of initcode.
 *
 * A limit of its own moves EIP-170's; no limit lifts both. The deployed-code limit is an EVM
 * param: every EVM built on a Common writes its params into it (EVM's constructor calls
 * common.updateParams), so it is passed to each EVM rather than set on the Common once. The
 * initcode limit is checked again wherever ethereumjs builds a transaction, from the transaction
 * package's own params (which it merges back into the Common each time): lifting it takes that
 * package's switch at each place a transaction is built (transactionLimits).
 */
import type { Common } from '@ethereumjs/common'
import { paramsEVM, type EVMOpts } from '@ethereumjs/evm'

/** Bytes of deployed code a contract may have; false: no limit. */
export type CodeSizeLimit = number | false

export const DEFAULT_CODE_SIZE_LIMIT = 24_576

/** EVM options for a node whose Common is `common`; marks that Common for transactionLimits. */
export function codeSizeOptions(common: Common, limit: CodeSizeLimit): EVMOpts {
  if (limit === DEFAULT_CODE_SIZE_LIMIT) return {}
  if (limit === false) {
    unlimitedInitCode.add(common)
    return { allowUnlimitedContractSize: true, allowUnlimitedInitCodeSize: true }
  }
  return { params: { ...paramsEVM, 607: { ...paramsEVM[607], maxCodeSize: limit } } }
}

/** The Commons of nodes with no code size limit. */
const unlimitedInitCode = new WeakSet<Common>()

/** What a transaction built on `common` takes: no initcode limit where its node has none. */
export function transactionLimits(common: Common): { allowUnlimitedInitCodeSize?: boolean } {
  return unlimitedInitCode.has(common) ? { allowUnlimitedInitCodeSize: true } : {}
}
