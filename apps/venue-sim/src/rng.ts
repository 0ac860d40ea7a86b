/** A small seeded generator (mulberry32): the same seed gives the same venue. */
export type Rng = {
  next: () => number;
  int: (min: number, max: number) => number;
  pick: <T>(list: readonly T[]) => T;
  chance: (p: number) => boolean;
  hex: (length: number) => string;
  fork: (salt: number) => Rng;
};

export function createRng(seed: number): Rng {
  let a = seed >>> 0 || 0x9e3779b9;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  return {
    next,
    int,
    pick: (list) => list[Math.floor(next() * list.length)],
    chance: (p) => next() < p,
    hex: (length) => Array.from({ length }, () => int(0, 15).toString(16)).join(''),
    fork: (salt) => createRng((seed ^ Math.imul(salt + 1, 0x85ebca6b)) >>> 0),
  };
}
