import {
  type Alert,
  AlertSchema,
  CompanyDetailSchema,
  ConnectivitySchema,
  SiteDetailSchema,
  SiteStatusSchema,
  TimeZoneSchema,
} from '@forecourt/contract/fleet';
import { PumpStatusLogSchema } from '@forecourt/contract/pumps';
import { HARDWARE_EVENT_TYPES } from '@forecourt/contract/rules';
import {
  BatterySchema,
  EnvironmentSchema,
  FlashDriveSchema,
  ShockSchema,
} from '@forecourt/contract/terminals';
import { queryOptions } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '../api-client.ts';
import { liveQuery } from './live.ts';

/**
 * Query options for the fleet reads behind the dashboard widgets. Every polled read goes through
 * `liveQuery`, so two widgets asking for the same path and parameters share one query.
 */

export type FleetKind = 'agent' | 'company' | 'site';
/** Which part of the fleet a dashboard (and its widgets) looks at. */
export interface FleetScope {
  kind: FleetKind;
  id: number;
}

/** The scope of a widget given the seed's inputs: agent id, else company id, else site id. */
export function scopeOf(ids: { agentId?: number; companyId?: number; siteId?: number }): FleetScope | null {
  if (ids.agentId && ids.agentId > 0) return { kind: 'agent', id: ids.agentId };
  if (ids.companyId && ids.companyId > 0) return { kind: 'company', id: ids.companyId };
  if (ids.siteId && ids.siteId > 0) return { kind: 'site', id: ids.siteId };
  return null;
}

const list = <T extends z.ZodType>(item: T) => z.array(item);

// Details change rarely: fetched once, kept a few minutes, not polled.
export const companyDetailQuery = (id: number) =>
  queryOptions({
    queryKey: ['fleet', 'company', id, 'detail'] as const,
    queryFn: ({ signal }) => api.get(`/api/company/detail/${id}/`, { schema: CompanyDetailSchema, signal }),
    staleTime: 5 * 60_000,
  });

export const siteDetailQuery = (id: number) =>
  queryOptions({
    queryKey: ['fleet', 'site', id, 'detail'] as const,
    queryFn: ({ signal }) => api.get(`/api/site/detail/${id}/`, { schema: SiteDetailSchema, signal }),
    staleTime: 5 * 60_000,
  });

export const AlertListSchema = list(AlertSchema);

export const alertsQuery = (scope: FleetScope, params: { limit_to?: number; event_type?: number[] } = {}) =>
  liveQuery(`/api/alerts/${scope.kind}/${scope.id}/`, AlertListSchema, params);

/** Hardware issues: the alerts of event types 1, 2, 12, 13, 14, 15. */
export const hardwareIssuesQuery = (scope: FleetScope) =>
  alertsQuery(scope, { event_type: [...HARDWARE_EVENT_TYPES] });

export const connectivityQuery = (
  scope: FleetScope & { kind: 'agent' | 'company' },
  params: { limit_to?: number; offline?: boolean } = {},
) => liveQuery(`/api/${scope.kind}/${scope.id}/connectivity/`, list(ConnectivitySchema), params);

export const sitesQuery = (scope: FleetScope & { kind: 'agent' | 'company' }) =>
  liveQuery(`/api/${scope.kind}/${scope.id}/sites/`, list(SiteStatusSchema));

export const timeZonesQuery = (scope: FleetScope & { kind: 'agent' | 'company' }) =>
  liveQuery(`/api/${scope.kind}/${scope.id}/time/zones/`, list(TimeZoneSchema));

export const pumpStatusQuery = (siteId: number) =>
  liveQuery(`/api/site/${siteId}/pumps/status/`, PumpStatusLogSchema);

export const batteryQuery = (siteId: number) =>
  liveQuery(`/api/site/${siteId}/terminals/battery/`, list(BatterySchema));

export const flashDriveQuery = (siteId: number) =>
  liveQuery(`/api/site/${siteId}/terminals/flashdisk/`, list(FlashDriveSchema));

/** Shared by board temperature, humidity and internal temperature: one request for the three. */
export const environmentQuery = (siteId: number) =>
  liveQuery(`/api/site/${siteId}/terminals/environment/`, list(EnvironmentSchema), { latest: true });

/** Shock readings: a site's own list, else the company's (or agent's) shock log. */
export const shocksQuery = (scope: FleetScope, limit = 50) =>
  scope.kind === 'site'
    ? liveQuery(`/api/site/${scope.id}/terminals/shock/`, list(ShockSchema), { limit_to: limit })
    : liveQuery(`/api/${scope.kind}/${scope.id}/shock/log/`, list(ShockSchema), { limit_to: limit });

export type { Alert };
