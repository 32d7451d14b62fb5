import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  FIRST_VIEW_DRAW_MS,
  FIRST_VIEW_GATE_MAX_MS,
  firstReadsDrawn,
  firstViewGate,
  holdSecondaryReads,
} from './first-view-gate.ts';
import { whenFirstReadsDrawn, whenFirstViewDrawn } from './when-first-view-drawn.ts';

describe('first view gate', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    firstViewGate.set(true);
    firstReadsDrawn.set(true);
  });
  afterEach(() => {
    vi.useRealTimers();
    firstViewGate.set(true);
    firstReadsDrawn.set(true);
  });

  it('says the first reads are drawn once they have settled and the browser was idle, before the gate opens', async () => {
    let answer: (v: unknown) => void = () => {};
    holdSecondaryReads(new Promise((r) => (answer = r)));
    const drawn = vi.fn();
    whenFirstReadsDrawn(drawn);
    expect(firstReadsDrawn.get()).toBe(false);
    await vi.advanceTimersByTimeAsync(FIRST_VIEW_GATE_MAX_MS / 2);
    expect(drawn).not.toHaveBeenCalled();
    answer([]);
    // jsdom has no requestIdleCallback: whenIdle runs the next task.
    await vi.advanceTimersByTimeAsync(5);
    expect(drawn).toHaveBeenCalledTimes(1);
    expect(firstViewGate.get()).toBe(false);
    await vi.advanceTimersByTimeAsync(FIRST_VIEW_DRAW_MS);
    expect(firstViewGate.get()).toBe(true);
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

  it('runs a waiting call once the gate opens, at once when it is open, and not at all once cancelled', async () => {
    const now = vi.fn();
    whenFirstViewDrawn(now);
    expect(now).toHaveBeenCalledTimes(1);
    let answer: (v: unknown) => void = () => {};
    holdSecondaryReads(new Promise((r) => (answer = r)));
    const later = vi.fn();
    const cancelled = vi.fn();
    whenFirstViewDrawn(later);
    const cancel = whenFirstViewDrawn(cancelled);
    cancel();
    answer([]);
    await vi.advanceTimersByTimeAsync(1_100 + FIRST_VIEW_DRAW_MS);
    expect(later).toHaveBeenCalledTimes(1);
    expect(cancelled).not.toHaveBeenCalled();
    firstViewGate.set(false);
    firstViewGate.set(true);
    expect(later).toHaveBeenCalledTimes(1);
  });
});
