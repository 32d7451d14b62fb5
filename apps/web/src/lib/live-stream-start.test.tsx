import { QueryClient, QueryClientProvider, QueryObserver } from '@tanstack/react-query';
import { renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { clearSession, setToken } from './auth/session.ts';
import { firstViewGate } from './first-view-gate.ts';
import { afterFirstReads, LIVE_START_LATEST_MS, useLiveStream } from './live-stream-start.ts';

const startLiveStream = vi.hoisted(() => vi.fn(() => () => {}));
vi.mock('./live-stream.ts', () => ({ startLiveStream }));

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

describe('useLiveStream', () => {
  afterEach(() => {
    vi.useRealTimers();
    firstViewGate.set(true);
    clearSession();
  });

  it('opens the stream only once the first view has been drawn (first-view gate open)', async () => {
    vi.useFakeTimers();
    setToken('a.b.c');
    firstViewGate.set(false);
    const client = new QueryClient();
    const wrapper = ({ children }: { children: ReactNode }) => (
      <QueryClientProvider client={client}>{children}</QueryClientProvider>
    );
    const { unmount } = renderHook(() => useLiveStream(), { wrapper });
    await vi.advanceTimersByTimeAsync(2 * LIVE_START_LATEST_MS);
    expect(startLiveStream).not.toHaveBeenCalled();
    firstViewGate.set(true);
    await vi.advanceTimersByTimeAsync(10);
    await vi.waitFor(() => expect(startLiveStream).toHaveBeenCalledTimes(1));
    unmount();
  });
});
