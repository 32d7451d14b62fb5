import { POLLING_DELAY_MS } from '@forecourt/contract/rules';
import type { QueryClient } from '@tanstack/react-query';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useLocation } from 'react-router';
import type { RequestOptions } from '../api-client.ts';
import { isStreamLive } from '../live-stream-state.ts';

/** Every live widget polls at this interval while the stream of changes is down. */
export const POLL_INTERVAL_MS = POLLING_DELAY_MS;

/**
 * A `refetchInterval` that polls every `ms` only while the stream of changes (lib/live-stream.ts) is
 * not live: while it is, each change refetches exactly the queries it touches and nothing polls. The
 * stream nudges every query when its state flips, so the interval starts and stops at once.
 */
export const pollWhileStreamDown =
  (ms: number = POLL_INTERVAL_MS) =>
  (): number | false =>
    isStreamLive() ? false : ms;

/**
 * Options every live dashboard read spreads into its `queryOptions`. Polling (only while the stream is
 * down) pauses while the tab is hidden (TanStack's default for `refetchInterval`), a focus or return to
 * the tab refreshes at once, and `meta.live` marks the query for cancellation when the page is left.
 */
export const polled = {
  refetchInterval: pollWhileStreamDown(POLL_INTERVAL_MS),
  refetchIntervalInBackground: false,
  refetchOnWindowFocus: true,
  staleTime: 5_000,
  meta: { live: true },
};

export type QueryParams = NonNullable<RequestOptions<unknown>['query']>;

/** Drop undefined/null/'' values and sort the names, so equal requests always build equal keys. */
export function cleanParams(query: QueryParams | undefined): QueryParams {
  const out: QueryParams = {};
  if (!query) return out;
  for (const key of Object.keys(query).sort()) {
    const v = query[key];
    if (v === undefined || v === null || v === '') continue;
    out[key] = v;
  }
  return out;
}

/** Stop every in-flight live request: called at each navigation start. */
export function cancelLiveQueries(client: QueryClient) {
  return client.cancelQueries({ predicate: (query) => query.meta?.live === true });
}

/**
 * Mounted once in the pages frame: whenever the route changes, in-flight polls of the page being
 * left are cancelled. Queries of the next page start afresh when their widgets mount.
 */
export function useCancelLiveOnNavigate() {
  const client = useQueryClient();
  const location = useLocation();
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on each location change by design
  useEffect(() => {
    return () => {
      void cancelLiveQueries(client);
    };
  }, [client, location.pathname, location.search]);
}
