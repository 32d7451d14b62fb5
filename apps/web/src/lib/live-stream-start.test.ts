import { QueryClient, QueryObserver } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { afterFirstReads, LIVE_START_LATEST_MS } from './live-stream-start.ts';

describe('the stream opens after the first reads', () => {
  afterEach(() => vi.useRealTimers());

  it('waits while the first reads are in flight, and runs once they have answered', async () => {
    vi.useFakeTimers();
    const client = new QueryClient();
    let answer: (value: number) => void = () => {};
    const observer = new QueryObserver(client, {
      queryKey: ['sites'],
      queryFn: () => new Promise<number>((resolve) => (answer = resolve)),
    });
    const unsubscribe = observer.subscribe(() => {});
    const task = vi.fn();
    afterFirstReads(client, task);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(task).not.toHaveBeenCalled();
    answer(24);
    await vi.advanceTimersByTimeAsync(10);
    expect(task).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(LIVE_START_LATEST_MS);
    expect(task).toHaveBeenCalledTimes(1);
    unsubscribe();
  });

  it('runs after the latest time when nothing is read, and not at all once cancelled', async () => {
    vi.useFakeTimers();
    const client = new QueryClient();
    const task = vi.fn();
    afterFirstReads(client, task);
    await vi.advanceTimersByTimeAsync(LIVE_START_LATEST_MS - 10);
    expect(task).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(20);
    expect(task).toHaveBeenCalledTimes(1);

    const cancelled = vi.fn();
    const cancel = afterFirstReads(client, cancelled);
    cancel();
    await vi.advanceTimersByTimeAsync(2 * LIVE_START_LATEST_MS);
    expect(cancelled).not.toHaveBeenCalled();
  });
});
