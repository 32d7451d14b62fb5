import { ConnectivitySchema } from '@forecourt/contract/fleet';
import { queryOptions } from '@tanstack/react-query';
import { z } from 'zod';
import { cleanParams, polled } from '../../../lib/api/live.ts';
import { QUERY_ROOTS, scopedKey } from '../../../lib/api/query-keys.ts';
import { api } from '../../../lib/api-client.ts';
import type { FleetScope } from '../../../lib/scope.ts';

const ConnectivityListSchema = z.array(ConnectivitySchema);

export interface ConnectivityFilters {
  limit_to?: number;
  offline?: boolean;
}

export const connectivityQueries = {
  all: [QUERY_ROOTS.connectivity] as const,
  /** GET /api/{agent|company}/{id}/connectivity/: the terminals with their online state. */
  list: (scope: FleetScope, filters: ConnectivityFilters = {}) => {
    const params = cleanParams({ ...filters });
    return queryOptions({
      queryKey: [...scopedKey(QUERY_ROOTS.connectivity, scope), params] as const,
      queryFn: ({ signal }) =>
        api.get(`/api/${scope.kind}/${scope.id}/connectivity/`, {
          query: params,
          schema: ConnectivityListSchema,
          signal,
        }),
      ...polled,
    });
  },
};
