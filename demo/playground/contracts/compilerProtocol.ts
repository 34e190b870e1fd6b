/** Messages between the page and the compiler worker (solc.worker.ts). */

export type WorkerRequest =
  /** Starts loading the compiler without compiling anything (the panel was opened). */
  | { type: 'load' }
  /** `input`: solc's standard JSON input, as text. */
  | { type: 'compile'; id: number; input: string }

export type WorkerReply =
  | { type: 'progress'; phase: 'download' | 'initialising'; loaded: number; total?: number }
  | { type: 'ready'; version: string }
  /** `output`: solc's standard JSON output, as text. */
  | { type: 'compiled'; id: number; output: string; ms: number }
  /** The compiler could not be loaded (id: the request it failed, if any). */
  | { type: 'failed'; id?: number; message: string }
