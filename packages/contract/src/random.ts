/**
 * A small seeded PRNG (mulberry32): the same seed gives the same stream on every machine, so the demo data
 * and the fleet simulator are reproducible and their tests can pin behaviour.
 */
export function createRandom(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
  return {
    /** Uniform in [0, 1). */
    next,
    /** Uniform in [min, max). */
    between: (min: number, max: number) => min + (max - min) * next(),
    /** Integer in [min, max]. */
    int: (min: number, max: number) => min + Math.floor(next() * (max - min + 1)),
    chance: (p: number) => next() < p,
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!,
    /** Roughly normal (mean 0, sd 1): sum of uniforms. */
    gauss: () => next() + next() + next() + next() + next() + next() - 3,
    /** Picks by weight: `[[value, weight], ...]`. */
    weighted: <T>(entries: readonly (readonly [T, number])[]): T => {
      const total = entries.reduce((s, [, w]) => s + w, 0);
      let r = next() * total;
      for (const [value, w] of entries) {
        r -= w;
        if (r < 0) return value;
      }
      return entries[entries.length - 1]![0];
    },
    /** Waiting time of a Poisson process with `ratePerMs` events per millisecond. */
    exponential: (ratePerMs: number) =>
      ratePerMs <= 0 ? Number.POSITIVE_INFINITY : -Math.log(1 - next()) / ratePerMs,
  };
}
export type Random = ReturnType<typeof createRandom>;

/** A stable 32-bit seed from a label (FNV-1a), so each entity (site, terminal) gets its own stream. */
export function seedOf(label: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < label.length; i++) {
    h ^= label.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}
