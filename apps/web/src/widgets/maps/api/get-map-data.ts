import { WebConfigSchema } from '@forecourt/contract/config';
import { MapSiteSchema, SiteMapTerminalSchema } from '@forecourt/contract/fleet';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { liveQuery } from '../../../lib/api/live.ts';
import { api } from '../../../lib/api-client.ts';

const MapSiteListSchema = z.array(MapSiteSchema);
const SiteMapTerminalListSchema = z.array(SiteMapTerminalSchema);

export type MapScope = 'agent' | 'company';

/** `GET /api/{agent|company}/{id}/map/terminals/`, polled and shared (the weather widget reads it too). */
export function companyMapQuery(scope: MapScope, id: number) {
  return liveQuery(`/api/${scope}/${id}/map/terminals/`, MapSiteListSchema);
}

/** `GET /api/site/{id}/map/terminals/`: the site's terminals with their position and connectivity. */
export function siteMapQuery(siteId: number) {
  return liveQuery(`/api/site/${siteId}/map/terminals/`, SiteMapTerminalListSchema);
}

/** The server's runtime settings (tile servers): read once per session. */
export function webConfigQuery() {
  return queryOptions({
    queryKey: ['config'] as const,
    queryFn: ({ signal }) =>
      api.get('/api/config', { schema: WebConfigSchema, signal, handleUnauthorized: false }),
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: Number.POSITIVE_INFINITY,
    retry: 1,
  });
}

/** Tile URL templates; null while loading, or when the settings cannot be read (markers still show). */
export function useTileUrls() {
  const query = useQuery(webConfigQuery());
  return {
    road: query.data?.tileUrlRoad ?? null,
    satellite: query.data?.tileUrlSatellite ?? null,
    settled: !query.isPending,
  };
}
