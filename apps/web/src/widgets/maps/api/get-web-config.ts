import { WebConfigSchema } from '@forecourt/contract/config';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { QUERY_ROOTS } from '../../../lib/api/query-keys.ts';
import { api } from '../../../lib/api-client.ts';

export const configQueries = {
  all: [QUERY_ROOTS.config] as const,
  /** GET /api/config: the server's runtime settings (tile servers), read once per session. */
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

/** Tile URL templates; null while loading, or when the settings cannot be read (markers still show). */
export function useTileUrls() {
  const query = useQuery(configQueries.web());
  return {
    road: query.data?.tileUrlRoad ?? null,
    satellite: query.data?.tileUrlSatellite ?? null,
    settled: !query.isPending,
  };
}
