import { PumpStatusLogSchema } from '@forecourt/contract/pumps';
import { queryOptions } from '@tanstack/react-query';
import { polled } from '../../../lib/api/live.ts';
import { QUERY_ROOTS, scopedKey } from '../../../lib/api/query-keys.ts';
import { api } from '../../../lib/api-client.ts';
import type { SiteScope } from '../../../lib/scope.ts';

export const pumpStatusQueries = {
  all: [QUERY_ROOTS.pumpStatus] as const,
  /** GET /api/site/{id}/pumps/status/: the latest status report of each pump of the site. */
  site: (scope: SiteScope) =>
    queryOptions({
      queryKey: scopedKey(QUERY_ROOTS.pumpStatus, scope),
      queryFn: ({ signal }) =>
        api.get(`/api/site/${scope.id}/pumps/status/`, { schema: PumpStatusLogSchema, signal }),
      ...polled,
    }),
};
