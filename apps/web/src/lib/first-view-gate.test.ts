import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  FIRST_VIEW_DRAW_MS,
  FIRST_VIEW_GATE_MAX_MS,
  firstViewGate,
  holdSecondaryReads,
} from './first-view-gate.ts';

describe('first view gate', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    firstViewGate.set(true);
  });
  afterEach(() => {
    vi.useRealTimers();
    firstViewGate.set(true);
  });

  it('is open by default, closes while first reads are on their way and opens once they have answered', async () => {
    expect(firstViewGate.get()).toBe(true);
    let answer: (v: unknown) => void = () => {};
    holdSecondaryReads(new Promise((r) => (answer = r)));
    expect(firstViewGate.get()).toBe(false);
    await vi.advanceTimersByTimeAsync(FIRST_VIEW_GATE_MAX_MS / 2);
    expect(firstViewGate.get()).toBe(false);
    answer([]);
    await vi.advanceTimersByTimeAsync(1_100 + FIRST_VIEW_DRAW_MS);
    expect(firstViewGate.get()).toBe(true);
  });

  it('opens after a failed read too, and after the time limit when a read never answers', async () => {
    holdSecondaryReads(Promise.reject(new Error('offline')));
    await vi.advanceTimersByTimeAsync(1_100 + FIRST_VIEW_DRAW_MS);
    expect(firstViewGate.get()).toBe(true);
    holdSecondaryReads(new Promise(() => {}));
    expect(firstViewGate.get()).toBe(false);
    await vi.advanceTimersByTimeAsync(FIRST_VIEW_GATE_MAX_MS);
    expect(firstViewGate.get()).toBe(true);
  });
});
