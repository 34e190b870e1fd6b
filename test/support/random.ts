/**
 * A small seeded generator (mulberry32), so a failing run can be told apart and replayed by its
 * seed: `below(n)` draws an integer in [0, n). (A plain LCG's low bits repeat within a few draws.)
 */
export function random(seed: number): (below: number) => number {
  let state = seed >>> 0
  return (below) => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return Math.floor((((t ^ (t >>> 14)) >>> 0) / 4294967296) * below)
  }
}
