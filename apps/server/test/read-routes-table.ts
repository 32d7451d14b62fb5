import {
  AlertCountSchema,
  AlertSchema,
  AlertSiteSchema,
  CompanyDetailSchema,
  ConnectivitySchema,
  MapSiteSchema,
  SiteDetailSchema,
  SiteMapTerminalSchema,
  SiteStatusSchema,
  SiteTerminalSchema,
  TimeZoneSchema,
} from '@forecourt/contract/fleet';
import * as logRows from '@forecourt/contract/logs';
import { PumpSchema, PumpStatusLogSchema } from '@forecourt/contract/pumps';
import { SCOPE_KINDS, type ScopeKind } from '@forecourt/contract/scope';
import {
  BatterySchema,
  EnvironmentSchema,
  FlashDriveSchema,
  ShockSchema,
} from '@forecourt/contract/terminals';
import { TransactionActivitySchema } from '@forecourt/contract/transactions';
import { z } from 'zod';

export type Kind = ScopeKind;

export interface ReadRoute {
  /** OpenAPI-style template: `{id}` is the scoped id, `{siteId}` a site. */
  path: string;
  /** Whose scope the path's ids are checked against: the kind of `{id}` (nested: `{id}` company + `{siteId}` site). */
  kind: Kind;
  nestedSite?: boolean;
  schema: z.ZodType;
  log?: boolean;
}

const data: ReadRoute[] = [];
const logs: ReadRoute[] = [];
for (const kind of SCOPE_KINDS) {
  data.push({ path: `/api/alerts/${kind}/{id}/`, kind, schema: z.array(AlertSchema) });
  data.push({ path: `/api/alerts/${kind}/{id}/count/`, kind, schema: AlertCountSchema });
  if (kind !== 'site')
    data.push({ path: `/api/alerts/${kind}/{id}/sites/`, kind, schema: z.array(AlertSiteSchema) });
  const base = `/api/${kind}/{id}`;
  logs.push(
    { path: `${base}/alert/log/`, kind, schema: z.array(logRows.AlertLogEntrySchema), log: true },
    { path: `${base}/terminal/hardware/log/`, kind, schema: z.array(logRows.AlertLogEntrySchema), log: true },
    {
      path: `${base}/connectivity/log/`,
      kind,
      schema: z.array(logRows.ConnectivityLogEntrySchema),
      log: true,
    },
    { path: `${base}/terminal/reboot/log/`, kind, schema: z.array(logRows.RebootLogEntrySchema), log: true },
    { path: `${base}/reboot/log/`, kind, schema: z.array(logRows.RebootLogEntrySchema), log: true },
    { path: `${base}/shock/alert/log/`, kind, schema: z.array(logRows.ShockLogEntrySchema), log: true },
    { path: `${base}/shock/log/`, kind, schema: z.array(logRows.ShockLogEntrySchema), log: true },
    {
      path: `${base}/pump/activation/log/`,
      kind,
      schema: z.array(logRows.PumpActivationLogRowSchema),
      log: true,
    },
  );
}
for (const kind of ['agent', 'company'] as const) {
  const base = `/api/${kind}/{id}`;
  data.push(
    { path: `${base}/connectivity/`, kind, schema: z.array(ConnectivitySchema) },
    { path: `${base}/map/terminals/`, kind, schema: z.array(MapSiteSchema) },
    { path: `${base}/sites/`, kind, schema: z.array(SiteStatusSchema) },
    { path: `${base}/time/zones/`, kind, schema: z.array(TimeZoneSchema) },
  );
}
data.push(
  { path: '/api/company/detail/{id}/', kind: 'company', schema: CompanyDetailSchema },
  { path: '/api/site/detail/{id}/', kind: 'site', schema: SiteDetailSchema },
  { path: '/api/site/{id}/pumps/', kind: 'site', schema: z.array(PumpSchema) },
  { path: '/api/site/{id}/pumps/status/', kind: 'site', schema: PumpStatusLogSchema },
  { path: '/api/site/{id}/terminals/', kind: 'site', schema: z.array(SiteTerminalSchema) },
  { path: '/api/site/{id}/map/terminals/', kind: 'site', schema: z.array(SiteMapTerminalSchema) },
  { path: '/api/site/{id}/terminals/battery/', kind: 'site', schema: z.array(BatterySchema) },
  { path: '/api/site/{id}/terminals/environment/', kind: 'site', schema: z.array(EnvironmentSchema) },
  { path: '/api/site/{id}/terminals/flashdisk/', kind: 'site', schema: z.array(FlashDriveSchema) },
  { path: '/api/site/{id}/terminals/shock/', kind: 'site', schema: z.array(ShockSchema) },
  { path: '/api/transactions/{id}/', kind: 'site', schema: TransactionActivitySchema },
);
logs.push(
  {
    path: '/api/company/{id}/site/{siteId}/terminal/hardware/log/',
    kind: 'company',
    nestedSite: true,
    schema: z.array(logRows.AlertLogEntrySchema),
    log: true,
  },
  {
    path: '/api/site/{id}/pump/status/log/',
    kind: 'site',
    schema: z.array(logRows.PumpStatusLogRowSchema),
    log: true,
  },
  {
    path: '/api/site/{id}/terminal/battery/log/',
    kind: 'site',
    schema: z.array(logRows.BatteryLogEntrySchema),
    log: true,
  },
  {
    path: '/api/site/{id}/terminal/flashdrive/log/',
    kind: 'site',
    schema: z.array(logRows.FlashDriveLogEntrySchema),
    log: true,
  },
  {
    path: '/api/site/{id}/terminal/environment/log/',
    kind: 'site',
    schema: z.array(logRows.EnvironmentLogEntrySchema),
    log: true,
  },
);

export const DATA_ROUTES = data;
export const LOG_ROUTES = logs;
export const READ_ROUTES = [...data, ...logs];

/** Fills a template: `{id}` and `{siteId}`. */
export function fill(path: string, id: number | string, siteId?: number | string): string {
  return path.replace('{id}', String(id)).replace('{siteId}', String(siteId ?? id));
}

/** OpenAPI paths of the scoped reads (every GET under agent, company, site, alerts and transactions). */
export function scopedReadPaths(openapi: { paths: Record<string, Record<string, unknown>> }): string[] {
  return Object.entries(openapi.paths)
    .filter(([p, ops]) => 'get' in ops && /^\/api\/(agent|company|site|alerts|transactions)\//.test(p))
    .map(([p]) => p.replace('/api/transactions/{siteId}', '/api/transactions/{id}').replace(/\/?$/, '/'));
}
