import { MapSiteSchema, SiteMapTerminalSchema } from '@forecourt/contract/fleet';
import { queryOptions } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '../api-client.ts';
import type { FleetScope, SiteScope } from '../scope.ts';
import { polled } from './live.ts';
import { QUERY_ROOTS, scopedKey } from './query-keys.ts';

const MapSiteListSchema = z.array(MapSiteSchema);
const SiteMapTerminalListSchema = z.array(SiteMapTerminalSchema);

/** Terminals with their position and connectivity: the maps draw them, the weather finds its place in them. */
export const mapTerminalQueries = {
  all: [QUERY_ROOTS.mapTerminals] as const,
  /** GET /api/{agent|company}/{id}/map/terminals/: grouped by site. */
  fleet: (scope: FleetScope) =>
    queryOptions({
      queryKey: scopedKey(QUERY_ROOTS.mapTerminals, scope),
      queryFn: ({ signal }) =>
        api.get(`/api/${scope.kind}/${scope.id}/map/terminals/`, { schema: MapSiteListSchema, signal }),
      ...polled,
    }),
  /** GET /api/site/{id}/map/terminals/: one site's terminals. */
  site: (scope: SiteScope) =>
    queryOptions({
      queryKey: scopedKey(QUERY_ROOTS.mapTerminals, scope),
      queryFn: ({ signal }) =>
        api.get(`/api/site/${scope.id}/map/terminals/`, { schema: SiteMapTerminalListSchema, signal }),
      ...polled,
    }),
};
