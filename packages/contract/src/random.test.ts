import { describe, expect, it } from 'vitest';
import { createRandom, seedOf } from './random.ts';

describe('seeded random streams', () => {
  it('give the same stream for the same seed and another for another seed', () => {
    const a = createRandom(42);
    const b = createRandom(42);
    const c = createRandom(43);
    const take = (r: ReturnType<typeof createRandom>) => Array.from({ length: 5 }, () => r.next());
    const first = take(a);
    expect(take(b)).toEqual(first);
    expect(take(c)).not.toEqual(first);
    for (const v of first) expect(v >= 0 && v < 1).toBe(true);
  });

  it('keep every draw inside its range', () => {
    const r = createRandom(7);
    for (let i = 0; i < 1000; i++) {
      const n = r.int(3, 5);
      expect(n >= 3 && n <= 5 && Number.isInteger(n)).toBe(true);
      const x = r.between(-2, 2);
      expect(x >= -2 && x < 2).toBe(true);
      expect(['a', 'b']).toContain(r.pick(['a', 'b']));
      expect(r.exponential(0.001)).toBeGreaterThanOrEqual(0);
    }
    expect(r.exponential(0)).toBe(Number.POSITIVE_INFINITY);
  });

  it('picks by weight: a weight of zero is never picked, the heavier side most often', () => {
    const r = createRandom(11);
    const picks = Array.from({ length: 2000 }, () =>
      r.weighted([
        ['rare', 1],
        ['never', 0],
        ['often', 9],
      ] as const),
    );
    expect(picks).not.toContain('never');
    const often = picks.filter((p) => p === 'often').length / picks.length;
    expect(often).toBeGreaterThan(0.85);
    expect(often).toBeLessThan(0.95);
  });

  it('derives a stable seed from a label', () => {
    expect(seedOf('terminal 10010001')).toBe(seedOf('terminal 10010001'));
    expect(seedOf('terminal 10010001')).not.toBe(seedOf('terminal 10010002'));
    expect(seedOf('')).toBe(0x811c9dc5);
  });
});
