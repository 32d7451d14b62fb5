import { PumpSchema } from '@forecourt/contract/pumps';
import { queryOptions } from '@tanstack/react-query';
import { z } from 'zod';
import { polled } from '../../../lib/api/live.ts';
import { QUERY_ROOTS, scopedKey } from '../../../lib/api/query-keys.ts';
import { api } from '../../../lib/api-client.ts';
import type { SiteScope } from '../../../lib/scope.ts';

const PumpListSchema = z.array(PumpSchema);

export const pumpQueries = {
  all: [QUERY_ROOTS.pumps] as const,
  /** GET /api/site/{id}/pumps/: the site's pumps with their requested and confirmed state. */
  site: (scope: SiteScope) =>
    queryOptions({
      queryKey: scopedKey(QUERY_ROOTS.pumps, scope),
      queryFn: ({ signal }) => api.get(`/api/site/${scope.id}/pumps/`, { schema: PumpListSchema, signal }),
      ...polled,
    }),
};
