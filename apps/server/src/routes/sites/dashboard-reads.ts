import { ListQuerySchema } from '@forecourt/contract/common';
import { SiteMapTerminalSchema, SiteTerminalSchema } from '@forecourt/contract/fleet';
import { PumpStatusQuerySchema, TerminalReadingsQuerySchema } from '@forecourt/contract/logs';
import { PumpSchema, PumpStatusLogSchema } from '@forecourt/contract/pumps';
import {
  BatterySchema,
  EnvironmentSchema,
  FlashDriveSchema,
  ShockSchema,
} from '@forecourt/contract/terminals';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { dataRoute } from '../../lib/read-routes.ts';

/** Site dashboard reads (the logs, incl. /pump/activation/log/ and /reboot/log, are in routes/logs). */
export async function siteDataRoutes(app: FastifyInstance) {
  const reads = app.repos.fleetReads;
  const base = '/api/site/:id';
  const tags = ['site'];
  const kind = 'site' as const;

  dataRoute(app, {
    url: `${base}/pumps/`,
    kind,
    tags,
    summary: 'Pumps of the site: status is the requested state, last_synapse_status the confirmed one',
    response: z.array(PumpSchema),
    load: ({ scope }) => reads.sitePumps(scope.id),
  });
  dataRoute(app, {
    url: `${base}/pumps/status/`,
    kind,
    tags,
    summary: 'Pump status entries keyed by pump number, newest first (`limit_to` per pump, default 20)',
    query: PumpStatusQuerySchema,
    response: PumpStatusLogSchema,
    load: ({ scope, query }) => reads.pumpStatus(scope.id, query.limit_to),
  });
  dataRoute(app, {
    url: `${base}/terminals/`,
    kind,
    tags,
    summary: 'Terminals of the site with their position (lat, lng) and connectivity',
    response: z.array(SiteTerminalSchema),
    load: ({ scope }) => reads.siteTerminals(scope.id),
  });
  dataRoute(app, {
    url: `${base}/map/terminals/`,
    kind,
    tags,
    summary: 'Terminal positions and connectivity for the aerial map',
    response: z.array(SiteMapTerminalSchema),
    load: ({ scope }) => reads.siteMapTerminals(scope.id),
  });
  dataRoute(app, {
    url: `${base}/terminals/battery/`,
    kind,
    tags,
    summary: 'Latest battery life per terminal',
    query: TerminalReadingsQuerySchema,
    response: z.array(BatterySchema),
    load: ({ scope, query }) => reads.battery(scope.id, query.limit_to),
  });
  dataRoute(app, {
    url: `${base}/terminals/environment/`,
    kind,
    tags,
    summary: 'Latest board temperature, cabinet temperature and humidity per terminal',
    query: TerminalReadingsQuerySchema,
    response: z.array(EnvironmentSchema),
    load: ({ scope, query }) => reads.environment(scope.id, query.limit_to),
  });
  dataRoute(app, {
    url: `${base}/terminals/flashdisk/`,
    kind,
    tags,
    summary: 'Latest flash drive space left per terminal',
    query: TerminalReadingsQuerySchema,
    response: z.array(FlashDriveSchema),
    load: ({ scope, query }) => reads.flashDrive(scope.id, query.limit_to),
  });
  dataRoute(app, {
    url: `${base}/terminals/shock/`,
    kind,
    tags,
    summary: 'Newest shock readings of the site',
    query: ListQuerySchema,
    response: z.array(ShockSchema),
    load: ({ scope, query }) => reads.siteShocks(scope.id, query.limit_to),
  });
}
