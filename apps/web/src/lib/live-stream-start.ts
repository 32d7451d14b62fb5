import { type QueryClient, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useSession } from './auth/session.ts';
import { whenFirstViewDrawn } from './when-first-view-drawn.ts';
import { whenIdle } from './when-idle.ts';

/** The longest the stream waits for the first view's reads before it opens anyway. */
export const LIVE_START_LATEST_MS = 3_000;

/**
 * Runs `task` once the page's first reads have answered (none in flight, one at least with data) and the browser
 * is idle, or after `latestMs` whatever happens. Returns a function that cancels it if it has not run.
 */
export function afterFirstReads(
  client: QueryClient,
  task: () => void,
  latestMs = LIVE_START_LATEST_MS,
): () => void {
  const cache = client.getQueryCache();
  let settled = false;
  let cancelIdle = () => {};
  let unsubscribe = () => {};
  const timer = setTimeout(() => settle(), latestMs);
  const release = () => {
    settled = true;
    unsubscribe();
    clearTimeout(timer);
  };
  const settle = () => {
    if (settled) return;
    release();
    cancelIdle = whenIdle(task, 1_000);
  };
  const check = () => {
    if (client.isFetching() === 0 && cache.getAll().some((q) => q.state.dataUpdatedAt > 0)) settle();
  };
  unsubscribe = cache.subscribe(check);
  check();
  return () => {
    release();
    cancelIdle();
  };
}

/**
 * Mounted once in the signed-in frame: the tab's stream of changes (lib/live-stream.ts) runs while a token is
 * stored. It opens once the first view's reads have answered (decision 0006): its client (`eventsource`) is not part of
 * the first view's scripts, and its first open's re-read of what is loaded (which covers changes made between those
 * reads and the stream's start) comes after the first answers are on screen, not in the way of them; and not
 * before the first view has been drawn (lib/first-view-gate.ts), so that its script is not fetched while the
 * largest paint is still to come. Until then the dashboards poll as they do whenever the stream is down.
 */
export function useLiveStream() {
  const client = useQueryClient();
  const { token } = useSession();
  useEffect(() => {
    if (!token) return;
    let stop: (() => void) | undefined;
    let ended = false;
    let cancelGate = () => {};
    const cancel = afterFirstReads(client, () => {
      cancelGate = whenFirstViewDrawn(() => {
        void import('./live-stream.ts').then(({ startLiveStream }) => {
          if (!ended) stop = startLiveStream({ client });
        });
      });
    });
    return () => {
      ended = true;
      cancel();
      cancelGate();
      stop?.();
    };
  }, [client, token]);
}
