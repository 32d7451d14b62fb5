import { EnvironmentSchema } from '@forecourt/contract/terminals';
import { queryOptions } from '@tanstack/react-query';
import { z } from 'zod';
import { polled } from '../../../lib/api/live.ts';
import { QUERY_ROOTS, scopedKey } from '../../../lib/api/query-keys.ts';
import { api } from '../../../lib/api-client.ts';
import type { SiteScope } from '../../../lib/scope.ts';

const EnvironmentListSchema = z.array(EnvironmentSchema);

export const environmentQueries = {
  all: [QUERY_ROOTS.environment] as const,
  /**
   * GET /api/site/{id}/terminals/environment/?latest=true: the latest reading of each terminal. Board
   * temperature, humidity and internal temperature read this one query (one request for the three).
   */
  latest: (scope: SiteScope) =>
    queryOptions({
      queryKey: [...scopedKey(QUERY_ROOTS.environment, scope), { latest: true }] as const,
      queryFn: ({ signal }) =>
        api.get(`/api/site/${scope.id}/terminals/environment/`, {
          query: { latest: true },
          schema: EnvironmentListSchema,
          signal,
        }),
      ...polled,
    }),
};
