import { WebConfigSchema } from '@forecourt/contract/config';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../api-client.ts';
import { QUERY_ROOTS } from './query-keys.ts';

export const configQueries = {
  all: [QUERY_ROOTS.config] as const,
  /**
   * GET /api/config: the server's runtime settings (tile servers) and which outside services it can reach (tile
   * servers, weather, geocoding), read once per session; the weather widget reads it again with each forecast.
   */
  web: () =>
    queryOptions({
      queryKey: [...configQueries.all, 'web'] as const,
      queryFn: ({ signal }) =>
        api.get('/api/config', { schema: WebConfigSchema, signal, handleUnauthorized: false }),
      staleTime: Number.POSITIVE_INFINITY,
      gcTime: Number.POSITIVE_INFINITY,
      retry: 1,
    }),
};
