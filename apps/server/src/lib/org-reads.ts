import {
  ConnectivitySchema,
  ListConnectivityQuerySchema,
  MapSiteSchema,
  SiteStatusSchema,
  TimeZoneSchema,
} from '@forecourt/contract/fleet';
import { utcOffsetHours } from '@forecourt/contract/formatters';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { ZoneRow } from '../repositories/fleet-read-repository.ts';
import { dataRoute } from './read-routes.ts';

/** Zones with their current UTC offset (follows daylight saving through the IANA name). */
export function withOffsets(zones: ZoneRow[], now = new Date()) {
  return zones.map((z) => {
    let tz = 0;
    try {
      tz = utcOffsetHours(z.iana, now);
    } catch {
      tz = 0;
    }
    return { title: z.title, area: z.area, tz_title: z.tz_title, tz, iana: z.iana };
  });
}

/** Shared by agents and companies: connectivity, road map, sites, time zones. */
export function registerOrgReads(app: FastifyInstance, kind: 'agent' | 'company') {
  const base = `/api/${kind}/:id`;
  const tags = [kind];
  dataRoute(app, {
    url: `${base}/connectivity/`,
    kind,
    tags,
    summary: 'One row per terminal: on or off, and since when',
    description: '`offline=true` lists only terminals that are not online; `limit_to` bounds the list.',
    query: ListConnectivityQuerySchema,
    response: z.array(ConnectivitySchema),
    load: ({ scope, query }) =>
      app.repos.fleetReads.connectivity(scope, { offline: query.offline === true, limit: query.limit_to }),
  });
  dataRoute(app, {
    url: `${base}/map/terminals/`,
    kind,
    tags,
    summary: 'Sites with their terminals and marker colours (on green, off red, else yellow)',
    response: z.array(MapSiteSchema),
    loadJson: ({ scope }) => app.repos.fleetReads.mapSitesJson(scope),
  });
  dataRoute(app, {
    url: `${base}/sites/`,
    kind,
    tags,
    summary: 'Sites with status: 0 when no terminal is online, else how many are',
    response: z.array(SiteStatusSchema),
    load: ({ scope }) => app.repos.fleetReads.sites(scope),
  });
  dataRoute(app, {
    url: `${base}/time/zones/`,
    kind,
    tags,
    summary: 'Time zones of the local-time widget, with their current offset',
    response: z.array(TimeZoneSchema),
    load: async ({ scope }) => withOffsets(await app.repos.fleetReads.timeZones({ kind, id: scope.id })),
  });
}
