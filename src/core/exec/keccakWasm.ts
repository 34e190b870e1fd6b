/**
 * hash-wasm's keccak alone. Imported statically here and this module dynamically, so that a
 * bundler keeps only keccak: esbuild cannot prune the namespace of a dynamic import of the
 * package root, and would ship all of hash-wasm's algorithms (~200 KB) in the worker's chunk.
 */
export { createKeccak } from 'hash-wasm'
