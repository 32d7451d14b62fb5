import { type QueryClient, queryOptions, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useLocation } from 'react-router';
import type { ZodType } from 'zod';
import { api, type RequestOptions } from '../api-client.ts';

/** Every live widget polls at this interval (seed section 9). */
export const POLL_INTERVAL_MS = 12_500;

/** The root of every fleet query key: navigation cancels all of them at once. */
export const LIVE_KEY = 'live' as const;

type Query = RequestOptions<unknown>['query'];

/** Drop undefined/null/'' values so equal requests always build equal keys. */
function cleanQuery(query: Query): Record<string, unknown> | undefined {
  if (!query) return undefined;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(query).sort()) {
    const v = query[key];
    if (v === undefined || v === null || v === '') continue;
    out[key] = v;
  }
  return Object.keys(out).length ? out : undefined;
}

/**
 * Query options for one polled GET of the fleet API. The key is the path and its parameters, so
 * every widget that needs the same data shares one query (and one request every 12.5 s).
 * Polling pauses while the tab is hidden (TanStack's default for `refetchInterval`) and a focus or
 * return to the tab refreshes at once.
 *
 *   const q = useQuery(liveQuery(`/api/company/${id}/sites/`, SiteStatusListSchema));
 */
export function liveQuery<T>(path: string, schema: ZodType<T>, query?: Query) {
  const params = cleanQuery(query);
  return queryOptions({
    queryKey: [LIVE_KEY, path, params ?? {}] as const,
    queryFn: ({ signal }) => api.get<T>(path, { query: params as Query, schema, signal }),
    refetchInterval: POLL_INTERVAL_MS,
    refetchIntervalInBackground: false,
    refetchOnWindowFocus: true,
    staleTime: 5_000,
  });
}

/** Stop every in-flight live request: called at each navigation start. */
export function cancelLiveQueries(client: QueryClient) {
  return client.cancelQueries({ queryKey: [LIVE_KEY] });
}

/**
 * Mounted once in the pages frame: whenever the route changes, in-flight polls of the page being
 * left are cancelled (the seed stops its timers at every navigation start). Queries of the next page
 * start afresh when their widgets mount.
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
