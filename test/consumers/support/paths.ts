import { fileURLToPath } from 'node:url'

export const REPO = fileURLToPath(new URL('../../..', import.meta.url))

/**
 * Where the consumer projects are made: inside the repository, so that what they import besides
 * pagenode (vite, viem, ethers, webpack, …) resolves from this project's node_modules, installed
 * by `npm ci`, as a consumer's own dependencies would be. pagenode itself is the packed tarball,
 * unpacked into each project's node_modules.
 */
export const CONSUMERS_DIR = `${REPO}.consumers`
