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

/**
 * Tile URL templates; null while loading, when the settings cannot be read, or when the server could not reach
 * that tile server (then no tile is ever requested: markers still show, and the map says the tiles are missing).
 */
export function useTileUrls() {
  const query = useQuery(configQueries.web());
  const data = query.data;
  return {
    road: data?.tileRoadReachable ? data.tileUrlRoad : null,
    satellite: data?.tileSatelliteReachable ? data.tileUrlSatellite : null,
    settled: !query.isPending,
  };
}
