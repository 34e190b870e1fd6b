/**
 * What the call recorder needs to know about a piece of EVM code. The EVM's `step` event costs
 * about +60% per opcode, so the recorder only listens to steps while a frame runs code that can
 * do something messages alone do not show.
 */
export interface CodeFeatures {
  call: boolean
  staticCall: boolean
  log: boolean
}

const CALL = 0xf1
const STATICCALL = 0xfa
const LOG0 = 0xa0
const LOG4 = 0xa4
const PUSH1 = 0x60
const PUSH32 = 0x7f

// Code arrays come from the state manager's code cache, so the same contract is scanned once.
const scanned = new WeakMap<Uint8Array, CodeFeatures>()
const pushData = new WeakMap<Uint8Array, Uint8Array>()

/**
 * Scans instructions, skipping PUSH data and solc's metadata trailer. Data the scan cannot tell
 * from code (a factory's embedded init code) can only add false positives, which cost time and
 * never change a trace.
 */
export function codeFeatures(code: Uint8Array): CodeFeatures {
  const known = scanned.get(code)
  if (known) return known
  const features: CodeFeatures = { call: false, staticCall: false, log: false }
  const end = code.length - solcMetadataLength(code)
  for (let pc = 0; pc < end; pc++) {
    const op = code[pc]
    if (op >= PUSH1 && op <= PUSH32) pc += op - PUSH1 + 1
    else if (op === CALL) features.call = true
    else if (op === STATICCALL) features.staticCall = true
    else if (op >= LOG0 && op <= LOG4) features.log = true
  }
  scanned.set(code, features)
  return features
}

/** Whether `code[index]` is an instruction rather than PUSH data. */
export function isInstruction(code: Uint8Array, index: number): boolean {
  let mask = pushData.get(code)
  if (!mask) {
    mask = new Uint8Array(code.length)
    for (let pc = 0; pc < code.length; pc++) {
      const op = code[pc]
      if (op >= PUSH1 && op <= PUSH32) {
        const width = op - PUSH1 + 1
        mask.fill(1, pc + 1, Math.min(pc + 1 + width, code.length))
        pc += width
      }
    }
    pushData.set(code, mask)
  }
  return index >= 0 && index < code.length && mask[index] === 0
}

/**
 * solc ends runtime code with a CBOR map ({ipfs|bzzr0|bzzr1|solc|experimental: …}) followed by
 * its length in two bytes; 0 when the code does not end that way.
 */
function solcMetadataLength(code: Uint8Array): number {
  if (code.length < 2) return 0
  const length = (code[code.length - 2] << 8) | code[code.length - 1]
  const start = code.length - 2 - length
  if (length < 8 || start < 0) return 0
  const mapHeader = code[start]
  const firstKeyHeader = code[start + 1]
  // A CBOR map of 1–5 entries whose first key is a short text string.
  if (mapHeader < 0xa1 || mapHeader > 0xa5 || firstKeyHeader < 0x64 || firstKeyHeader > 0x6c) return 0
  const key = String.fromCharCode(...code.subarray(start + 2, start + 2 + (firstKeyHeader - 0x60)))
  return ['ipfs', 'bzzr0', 'bzzr1', 'solc', 'experimental'].includes(key) ? length + 2 : 0
}
