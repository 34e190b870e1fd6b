/**
 * ZKsync's ContractDeployer deploys EVM bytecode for its caller: `createEVM(initCode)` and
 * `create2EVM(salt, initCode)` at 0x…8006 create a contract whose address is derived from the
 * caller (Ethereum's CREATE and CREATE2 derivations, the caller's nonce) and whose deployer is
 * the caller. EVM code at 0x…8006 cannot do that: its own CREATE would derive the address from
 * 0x…8006. So the node runs such a call as the caller's own creation, around the EVM's
 * `runCall` (which runTx calls for the transaction and the interpreter for every nested call):
 *
 * - before it runs, a call to 0x…8006 with either selector becomes a creation from the same
 *   caller, with the same value and gas, the init code (and salt) from the calldata. As for the
 *   CREATE opcode, a contract caller's nonce goes up first; a transaction's sender already counted
 *   its nonce, so its contract lands where its plain deployment would have;
 * - it is charged what a creation costs beyond a call (CREATE's 32,000 and EIP-3860's init code
 *   words), which neither the call's intrinsic gas nor the CALL opcode paid;
 * - after it ran, it answers as the ContractDeployer does, `(uint256 evmGasUsed, address
 *   newAddress)`, and leaves ZKsync's `ContractDeployed(deployer, bytecodeHash, contract)` event
 *   from 0x…8006 (the hash is ZKsync's versioned hash of EVM code, rollup/bytecodeHash.ts),
 *   which zksync-ethers reads deployments from.
 *
 * A transaction sent to 0x…8006 this way gets its receipt's `contractAddress`, as on ZKsync.
 * Traces show the creation itself (a CREATE from the caller), not a call into 0x…8006. A static
 * call, a delegate call or calldata that does not decode is left to the contract's own code,
 * which reverts. Wrapping `runCall` rather than listening to the EVM's message events keeps
 * every other message free of listeners (mining runs with none: test/core/trace/cost.test.ts);
 * should the interpreter stop calling `runCall` for nested calls, a contract's createEVM would
 * reach the contract's code and revert saying the node did not run it
 * (test/core/exec/contractDeployerHook.test.ts covers that path).
 */
import { EVMError, type EVMInterface, type EVMResult } from '@ethereumjs/evm'
import {
  Account,
  bigIntToBytes,
  bytesToBigInt,
  concatBytes,
  createAddressFromString,
  equalsBytes,
  hexToBytes,
  setLengthLeft,
  type Address,
} from '@ethereumjs/util'
import { evmBytecodeHash } from '../rollup/bytecodeHash.ts'
import { CONTRACT_DEPLOYER_ADDRESS } from '../rollup/systemContracts.ts'

const DEPLOYER = createAddressFromString(CONTRACT_DEPLOYER_ADDRESS)
const CREATE_EVM = hexToBytes('0xff311601') // createEVM(bytes)
const CREATE2_EVM = hexToBytes('0x4e96f4c0') // create2EVM(bytes32,bytes)
/** keccak256("ContractDeployed(address,bytes32,address)") */
/** The topic of ZKsync's `ContractDeployed(address indexed deployer, bytes32 indexed bytecodeHash, address indexed contractAddress)`. */
export const CONTRACT_DEPLOYED = hexToBytes('0x290afdae231a3fc0bbae8b1af63698b0a1d79b21ad17df0342dfb952fe74f8e5')

/** CREATE's fixed cost (what a creation transaction's intrinsic gas has and a call's has not). */
const CREATE_GAS = 32_000n
/** EIP-3860: per 32-byte word of init code. */
const INIT_CODE_WORD_GAS = 2n

interface Deployment {
  deployer: Address
  /** Gas charged for the creation on top of what the frame itself uses. */
  fee: bigint
  /** The call's gas did not cover the fee: the creation ran out of gas before it began. */
  starved: boolean
}

/** What runCall takes: a message (nested calls), or the fields it builds one from (a transaction). */
type RunCallOpts = Parameters<EVMInterface['runCall']>[0]

/** Makes `evm` run ContractDeployer's EVM deployments for their callers (see above). */
export function runContractDeployerCreations(evm: EVMInterface): void {
  const runCall = evm.runCall.bind(evm)
  // Any other call goes straight to ethereumjs: no await, no allocation on the hot path.
  evm.runCall = (opts: RunCallOpts) => {
    const request = deploymentRequest(opts)
    return request ? runDeployment(evm, runCall, opts, request) : runCall(opts)
  }
}

/** What a createEVM/create2EVM call asks for, read from its calldata. */
interface DeploymentRequest {
  call: CallFields & { caller: Address }
  initCode: Uint8Array
  salt?: Uint8Array
}

/** The deployment a call to 0x…8006 asks for; undefined for any other call (or one that does not decode). */
function deploymentRequest(opts: RunCallOpts): DeploymentRequest | undefined {
  const call: CallFields = opts.message ?? opts
  if (!call.to || !call.to.equals(DEPLOYER) || call.isStatic || call.delegatecall || !call.data || !call.caller) return undefined
  const data = call.data
  const isCreate2 = equalsBytes(data.subarray(0, 4), CREATE2_EVM)
  if (!isCreate2 && !equalsBytes(data.subarray(0, 4), CREATE_EVM)) return undefined
  const initCode = bytesArgument(data, isCreate2 ? 1 : 0)
  if (!initCode) return undefined
  return { call: call as CallFields & { caller: Address }, initCode, salt: isCreate2 ? data.subarray(4, 36) : undefined }
}

async function runDeployment(
  evm: EVMInterface,
  runCall: EVMInterface['runCall'],
  opts: RunCallOpts,
  { call, initCode, salt }: DeploymentRequest,
): Promise<EVMResult> {
  if (opts.message && opts.message.depth > 0) {
    // The CREATE opcode counts the creator's nonce before the address is derived from it.
    const caller = (await evm.stateManager.getAccount(call.caller)) ?? new Account()
    caller.nonce += 1n
    await evm.journal.putAccount(call.caller, caller)
  }
  const deployment = asCreation(call, initCode, salt)
  const result = await runCall(opts)
  await answerAsDeployer(evm, result, deployment)
  return result
}

/** Rewrites the call into its caller's creation, charging what a creation costs beyond a call. */
function asCreation(call: CallFields & { caller: Address }, initCode: Uint8Array, salt: Uint8Array | undefined): Deployment {
  const fee = CREATE_GAS + INIT_CODE_WORD_GAS * BigInt(Math.ceil(initCode.length / 32))
  call.to = undefined
  call.data = initCode
  if (salt) call.salt = salt
  const gasLimit = call.gasLimit ?? 0n
  if (gasLimit < fee) {
    // Out of gas before the creation begins: it runs INVALID with no gas left (failing, its
    // changes reverted) and is reported as running out of gas, all of the call's gas used.
    call.data = Uint8Array.of(0xfe)
    call.gasLimit = 0n
    return { deployer: call.caller, fee: gasLimit, starved: true }
  }
  call.gasLimit = gasLimit - fee
  return { deployer: call.caller, fee, starved: false }
}

/** The fields of a message, or of runCall's options, that a deployment rewrites. */
interface CallFields {
  to?: Address
  caller?: Address
  data?: Uint8Array
  salt?: Uint8Array
  gasLimit?: bigint
  isStatic?: boolean
  delegatecall?: boolean
}

async function answerAsDeployer(evm: EVMInterface, result: EVMResult, { deployer, fee, starved }: Deployment): Promise<void> {
  const exec = result.execResult
  exec.executionGasUsed += fee
  if (starved) exec.exceptionError = new EVMError(EVMError.errorMessages.OUT_OF_GAS)
  if (exec.exceptionError || !result.createdAddress) return
  const created = result.createdAddress
  const code = await evm.stateManager.getCode(created)
  exec.returnValue = concatBytes(word(exec.executionGasUsed), setLengthLeft(created.bytes, 32))
  const topics = [CONTRACT_DEPLOYED, setLengthLeft(deployer.bytes, 32), evmBytecodeHash(code), setLengthLeft(created.bytes, 32)]
  exec.logs = [...(exec.logs ?? []), [DEPLOYER.bytes, topics, new Uint8Array()]]
}

const word = (value: bigint) => setLengthLeft(bigIntToBytes(value), 32)

/** The `index`-th head word's `bytes` argument of ABI calldata, or undefined if it does not decode. */
function bytesArgument(data: Uint8Array, index: number): Uint8Array | undefined {
  const head = 4 + 32 * index
  if (data.length < head + 32) return undefined
  const offset = bytesToBigInt(data.subarray(head, head + 32))
  if (offset > BigInt(data.length)) return undefined
  const start = 4 + Number(offset)
  if (data.length < start + 32) return undefined
  const length = bytesToBigInt(data.subarray(start, start + 32))
  if (BigInt(start + 32) + length > BigInt(data.length)) return undefined
  return data.subarray(start + 32, start + 32 + Number(length))
}
