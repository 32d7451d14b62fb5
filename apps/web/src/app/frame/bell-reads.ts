import { apiUrl } from '../../lib/api-url.ts';
import type { Scope } from '../../lib/scope.ts';

/**
 * What the header's bell reads, kept free of the query modules and their schemas: the entry chunk sends these
 * reads with a dashboard's first reads (app/preload.ts, lib/early-reads.ts), the bell then takes their
 * answers. A test holds the URLs to the bell's queries.
 */

/** How many of the newest alerts the bell lists. */
export const NOTIFICATION_COUNT = 20;

/** The bell counts and lists the unacknowledged active alerts (docs/product.md#alert-lifecycle). */
export const BELL_FILTERS = { state: 'active', acknowledged: false } as const;

/** The URLs of the bell's two reads (the list, then the count), as the API client writes them. */
export function bellReadUrls(scope: Scope): string[] {
  const base = `/api/alerts/${scope.kind}/${scope.id}`;
  return [
    apiUrl(`${base}/`, { acknowledged: 'false', limit_to: NOTIFICATION_COUNT, state: 'active' }),
    apiUrl(`${base}/count/`, { acknowledged: 'false', state: 'active' }),
  ];
}
