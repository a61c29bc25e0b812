/**
 * Seeded randomness for control construction. mulberry32: 32-bit state, fast, and the same stream
 * on every platform, so `--seed` alone fixes the controls. Math.random is never used.
 */

export type Rng = () => number;

export function seededRng(seed: number): Rng {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A derived stream per purpose (one per control class), so adding a class never shifts the others. */
export function childRng(seed: number, purpose: string): Rng {
  let h = 2166136261 ^ seed;
  for (let i = 0; i < purpose.length; i++) h = Math.imul(h ^ purpose.charCodeAt(i), 16777619);
  return seededRng(h >>> 0);
}

/** Fisher–Yates on a copy. */
export function shuffled<T>(xs: readonly T[], rng: Rng): T[] {
  const out = [...xs];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(rng() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/**
 * Round-robin over groups (each shuffled, and the groups in shuffled order): one item from each
 * group in turn. Draws spread over skills or clusters instead of following the biggest one.
 */
export function interleaved<T>(groups: readonly (readonly T[])[], rng: Rng): T[] {
  const gs = shuffled(groups.filter((g) => g.length > 0), rng).map((g) => shuffled(g, rng));
  const total = gs.reduce((a, g) => a + g.length, 0);
  const out: T[] = [];
  for (let round = 0; out.length < total; round++) {
    for (const g of gs) if (round < g.length) out.push(g[round]!);
  }
  return out;
}
