import { describe, expect, it } from 'vitest';
import {
  autoPauseReason,
  cumulativeWaveSizes,
  failureExceeds,
  inWindow,
  RolloutCreateSchema,
  waveOfRank,
  wavesProblem,
} from './software.ts';

describe('rollout waves', () => {
  it('takes ascending cumulative percentages ending at 100', () => {
    expect(wavesProblem([1, 10, 100])).toBeNull();
    expect(wavesProblem([100])).toBeNull();
    expect(wavesProblem([0.5, 100])).toBeNull();
    for (const bad of [[], [50], [10, 5, 100], [50, 50, 100], [0, 100], [-1, 100], [100, 100], [50, 101]])
      expect(wavesProblem(bad), JSON.stringify(bad)).not.toBeNull();
  });

  it('gives every wave with a share at least one terminal, and the last all of them', () => {
    expect(cumulativeWaveSizes(24, [1, 10, 100])).toEqual([1, 3, 24]);
    expect(cumulativeWaveSizes(8, [25, 100])).toEqual([2, 8]);
    expect(cumulativeWaveSizes(1000, [1, 10, 100])).toEqual([10, 100, 1000]);
    expect(cumulativeWaveSizes(0, [1, 100])).toEqual([0, 0]);
    const sizes = cumulativeWaveSizes(24, [1, 10, 100]);
    expect([0, 1, 2, 3, 23].map((rank) => waveOfRank(rank, sizes))).toEqual([1, 2, 2, 3, 3]);
  });

  it('reads the defaults', () => {
    const r = RolloutCreateSchema.parse({ package_id: 1, target: { scope: { kind: 'agent', id: 1 } } });
    expect(r).toMatchObject({ waves: [1, 10, 100], wave_wait_s: 900, window: null, max_failure_pct: 5 });
  });
});

describe('rollout window', () => {
  const at = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3));
  it('holds from start (inclusive) to end (exclusive), across midnight when end < start', () => {
    const day = { start: '09:00', end: '17:00' };
    expect(inWindow(at('09:00'), day)).toBe(true);
    expect(inWindow(at('16:59'), day)).toBe(true);
    expect(inWindow(at('17:00'), day)).toBe(false);
    expect(inWindow(at('03:00'), day)).toBe(false);
    const night = { start: '22:00', end: '04:00' };
    expect(inWindow(at('23:30'), night)).toBe(true);
    expect(inWindow(at('00:00'), night)).toBe(true);
    expect(inWindow(at('03:59'), night)).toBe(true);
    expect(inWindow(at('04:00'), night)).toBe(false);
    expect(inWindow(at('12:00'), night)).toBe(false);
    expect(inWindow(at('12:00'), null)).toBe(true);
    expect(inWindow(at('12:00'), { start: '05:00', end: '05:00' })).toBe(true);
  });
});

describe('automatic pause', () => {
  it('pauses when the failed share of finished terminals exceeds the limit', () => {
    expect(failureExceeds(0, 0, 5)).toBe(false);
    expect(failureExceeds(1, 19, 5)).toBe(false);
    expect(failureExceeds(1, 18, 5)).toBe(true);
    expect(failureExceeds(1, 0, 100)).toBe(false);
    expect(failureExceeds(1, 0, 0)).toBe(true);
    expect(autoPauseReason(2, 1, 3, 5)).toBe(
      'Wave 2: 1 of 4 finished terminals failed (25%), more than max_failure_pct 5%',
    );
  });
});
