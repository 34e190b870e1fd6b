/** Messages between the page and the compiler worker (solc.worker.ts). */
import type { SolcVersion } from './solcVersions.ts'

/** `version`: the compiler the worker loads on its first message (later ones name the same). */
export type WorkerRequest =
  /** Starts loading the compiler without compiling anything (the panel was opened). */
  | { type: 'load'; version: SolcVersion }
  /** `input`: solc's standard JSON input, as text. */
  | { type: 'compile'; version: SolcVersion; id: number; input: string }

export type WorkerReply =
  | { type: 'progress'; phase: 'download' | 'initialising'; loaded: number; total?: number }
  | { type: 'ready'; version: string }
  /** `output`: solc's standard JSON output, as text. */
  | { type: 'compiled'; id: number; output: string; ms: number }
  /** The compiler could not be loaded (id: the request it failed, if any). */
  | { type: 'failed'; id?: number; message: string }
