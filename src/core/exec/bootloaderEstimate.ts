/**
 * The estimates of calls that ZKsync's bootloader runs with steps around them: a 0x71 call object
 * (from a contract account: its validation, payment and executeTransaction; from an EOA: an
 * allowance for them) and a call whose fee a paymaster pays. Loaded on the first such estimate
 * (estimateGas.ts, estimateGasAt), with the bootloader's flows it runs.
 */
import type { Block } from '@ethereumjs/block'
import { createAddressFromString, hexToBytes } from '@ethereumjs/util'
import type { VM } from '@ethereumjs/vm'
import type { CallRequest } from './call.ts'
import { estimateGas } from './estimateGas.ts'
import { postTransaction, validatePaymaster, type PaymasterView } from './bootloader.ts'
import { addBalance, BOOTLOADER_ADDRESS } from './bootloaderSteps.ts'
import { executeCalldata, isContractAccount, validateAccountTransaction, type AccountView } from './accountTransaction.ts'
import { eip712Digest, eip712TransactionHash } from '../rollup/eip712Hash.ts'

const ZERO_ADDRESS = '0x0000000000000000000000000000000000000000'
/** zksync-ethers' and viem's default gasPerPubdata (utils.DEFAULT_GAS_PER_PUBDATA_LIMIT). */
const DEFAULT_GAS_PER_PUBDATA = 50_000n

/**
 * What a 0x71 estimate from an EOA adds for the account steps around the transaction, as
 * ZKsync's estimate of an EOA includes its default account's validation, payment and
 * executeTransaction. zksync-ethers' SmartAccount fills a missing gasLimit with exactly such an
 * estimate: a 0x71 call object from the owner's EOA, not from the contract account whose steps
 * the transaction will run (docs/zksync.md, "Contract accounts"). An EOA's own transaction uses
 * only its EVM gas here; the rest is refunded.
 *
 * Sized by measurement (test/core/exec/accountTransaction.test.ts sends the same transactions
 * with zksync-ethers; docs/zksync.md has the figures): what Accounts.sol's EcdsaAccount and
 * TwoOwnerAccount used beyond the EOA estimate of the same call, for transfers, contract calls
 * and General or ApprovalBased paymasters. Their validateTransaction + payForTransaction took
 * 50.4k (one ECDSA key) and 54.7k gas (two 65-byte signatures: two ecrecovers, longer calldata);
 * with executeTransaction's own cost (its calldata, the account's call out, its event) the
 * largest total was 98.6k: the multisig sending value to an address with no account yet, whose
 * creation a plain transfer gets free with its 21,000 but a contract's call pays 25,000 for.
 * 120k covers it with about a fifth to spare, for accounts whose checks read storage or a few
 * more words. Accounts that do much more, or calls with tens of kB of data, want their own
 * estimate (the account as `from`) or a gasLimit.
 *
 * Not scaled by ZKsync's 1.3 (its estimate_gas_scale_factor) as well: that factor covers what
 * moves between its estimate and its execution (pubdata prices, the bootloader's overhead),
 * none of which exists here, where gas is the EVM's and the search is geth's; and the
 * allowance, not the factor, is what covers an account (1.3 × 21,000 would not).
 */
export const ACCOUNT_STEPS_ALLOWANCE = 120_000n

/**
 * estimateGasAt's answer for a 0x71 call object or one with a paymaster, `gas` being the call's
 * cap. A 0x71 call runs its sender's account steps when the sender is a contract account; from an
 * EOA it gets ACCOUNT_STEPS_ALLOWANCE on top of its EVM estimate, capped at the call's gas.
 */
export async function estimateWithBootloaderSteps(vm: VM, context: Block, request: CallRequest, gas: bigint): Promise<bigint> {
  if (request.eip712 && request.from && (await isContractAccount(vm, createAddressFromString(request.from)))) {
    return estimateForAccount(vm, context, request, gas)
  }
  const evm = request.paymaster ? await estimateWithPaymaster(vm, context, request, gas) : await estimateGas(vm, context, request, gas)
  if (!request.eip712) return evm
  // The allowance is headroom for a contract account's steps, not gas this transaction needs:
  // a cap the caller set bounds it rather than failing the estimate.
  const withSteps = evm + ACCOUNT_STEPS_ALLOWANCE
  return withSteps < gas ? withSteps : gas
}

/** The validation steps' share of a contract account's estimate, in percent of what they used with the stand-in signature. */
const VALIDATION_MARGIN_PERCENT = 120n

/**
 * The signature a contract account's estimate carries when the call object has none: 65 bytes
 * shaped like r‖s‖v (v = 27), every byte non-zero, so that the executeTransaction calldata costs
 * at least what a real 65-byte signature will.
 */
const DUMMY_SIGNATURE = Uint8Array.from({ length: 65 }, (_, i) => (i === 64 ? 27 : 0x11))

/**
 * A 0x71 call from a contract account, estimated as the bootloader runs it
 * (exec/accountTransaction.ts), once on the call's state within its cap: the account's
 * validation (its magic not enforced, as ZKsync's estimation mode does not: the signature is
 * usually a dummy) and its payment or its paymaster's steps (with a margin: VALIDATION_MARGIN_PERCENT),
 * then executeTransaction's own estimate (geth's search), then the paymaster's postTransaction. Without a paymaster the account
 * is credited the fee for the cap first, so that its payment and its balance checks pass.
 */
async function estimateForAccount(vm: VM, context: Block, request: CallRequest, gas: bigint): Promise<bigint> {
  const from = request.from!
  const account = createAddressFromString(from)
  const maxFeePerGas = request.maxFeePerGas ?? request.gasPrice ?? context.header.baseFeePerGas ?? 0n
  const signed = {
    chainId: vm.common.chainId(),
    from: hexToBytes(from),
    to: request.to ? hexToBytes(request.to) : new Uint8Array(),
    gasLimit: gas,
    gasPerPubdata: DEFAULT_GAS_PER_PUBDATA,
    maxFeePerGas,
    maxPriorityFeePerGas: request.maxPriorityFeePerGas ?? 0n,
    paymaster: request.paymaster ? hexToBytes(request.paymaster.address) : new Uint8Array(),
    nonce: (await vm.stateManager.getAccount(account))?.nonce ?? 0n,
    value: request.value ?? 0n,
    data: request.data ?? new Uint8Array(),
    factoryDepHashes: [],
    paymasterInput: request.paymaster?.input ?? new Uint8Array(),
  }
  const signature = request.eip712?.customSignature ?? DUMMY_SIGNATURE
  const digest = eip712Digest(signed)
  const view: AccountView = {
    account,
    transaction: { ...signed, signature },
    txHash: eip712TransactionHash(digest, signature),
    signedHash: digest,
    paymaster: request.paymaster && createAddressFromString(request.paymaster.address),
  }
  await vm.evm.journal.checkpoint()
  try {
    if (!view.paymaster) await addBalance(vm, account, gas * maxFeePerGas)
    const steps = await validateAccountTransaction(vm, context, view, { gasLimit: gas, ensureMagic: false })
    const execution = await estimateGas(vm, context, { from: BOOTLOADER_ADDRESS.toString(), to: from, data: executeCalldata(view) }, gas - steps.gasUsed)
    const post = view.paymaster
      ? (await postTransaction(vm, context, { ...view, paymaster: view.paymaster }, steps.context, true, gas - steps.gasUsed - execution)).gasUsed
      : 0n
    // The stand-in signature can take a cheaper path through the account's checks than the real
    // one will (a comparison cut short, a signer not looked up), and what validation uses is
    // taken from executeTransaction's gas: a margin on it, as ZKsync scales its estimates.
    const validation = (steps.gasUsed * VALIDATION_MARGIN_PERCENT) / 100n
    return validation + execution + post
  } finally {
    await vm.evm.journal.revert()
  }
}

/**
 * A call whose fee a paymaster pays: the call's own estimate (the account pays no fee, so its
 * balance bounds nothing), plus what the bootloader's steps around it use
 * (exec/bootloader.ts), run once on the same state within the call's cap: for approvalBased
 * the approval, the paymaster's validation and payment (for a gas limit of the call's estimate),
 * and its postTransaction. A paymaster that refuses fails the estimate with its reason, as on ZKsync.
 */
async function estimateWithPaymaster(vm: VM, context: Block, request: CallRequest, gas: bigint): Promise<bigint> {
  const { gasPrice, maxFeePerGas, maxPriorityFeePerGas, ...unpriced } = request
  const execution = await estimateGas(vm, context, unpriced, gas)
  const from = request.from ?? ZERO_ADDRESS
  const view: PaymasterView = {
    transaction: {
      from: hexToBytes(from),
      to: request.to ? hexToBytes(request.to) : new Uint8Array(),
      gasLimit: execution,
      gasPerPubdata: DEFAULT_GAS_PER_PUBDATA,
      maxFeePerGas: maxFeePerGas ?? gasPrice ?? context.header.baseFeePerGas ?? 0n,
      maxPriorityFeePerGas: maxPriorityFeePerGas ?? 0n,
      paymaster: hexToBytes(request.paymaster!.address),
      nonce: (await vm.stateManager.getAccount(createAddressFromString(from)))?.nonce ?? 0n,
      value: request.value ?? 0n,
      data: request.data ?? new Uint8Array(),
      signature: new Uint8Array(65),
      factoryDepHashes: [],
      paymasterInput: request.paymaster!.input,
    },
    txHash: new Uint8Array(32),
    signedHash: new Uint8Array(32),
    paymaster: createAddressFromString(request.paymaster!.address),
  }
  await vm.evm.journal.checkpoint()
  try {
    const validation = await validatePaymaster(vm, context, view, gas)
    const post = await postTransaction(vm, context, view, validation.context, true, gas - validation.gasUsed)
    return execution + validation.gasUsed + post.gasUsed
  } finally {
    await vm.evm.journal.revert()
  }
}
