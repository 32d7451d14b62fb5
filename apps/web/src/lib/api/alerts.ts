import { type Alert, AlertSchema } from '@forecourt/contract/fleet';
import type { CurrentUser } from '@forecourt/contract/users';
import { queryOptions } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '../api-client.ts';

export type AlertScope = 'agent' | 'company' | 'site';
export interface AlertSource {
  type: AlertScope;
  id: number;
}

export interface AlertsParams {
  limit_to?: number;
  event_type?: number[];
}

const AlertListSchema = z.array(AlertSchema);

export function getAlerts(
  source: AlertSource,
  params: AlertsParams = {},
  signal?: AbortSignal,
): Promise<Alert[]> {
  return api.get(`/api/alerts/${source.type}/${source.id}/`, {
    query: { limit_to: params.limit_to, event_type: params.event_type },
    schema: AlertListSchema,
    signal,
  });
}

/** One query per (scope, id, params), shared by every widget that shows these alerts. */
export function alertsQueryOptions(source: AlertSource, params: AlertsParams = {}) {
  return queryOptions({
    queryKey: ['alerts', source.type, source.id, params] as const,
    queryFn: ({ signal }) => getAlerts(source, params, signal),
  });
}

/**
 * Where notifications come from, by user kind: the agent's alerts if the agent id is a positive
 * number; else the first company's; else the first site's; otherwise none.
 */
export function notificationSource(
  user: Pick<CurrentUser, 'agent' | 'companies' | 'sites'> | null,
): AlertSource | null {
  if (!user) return null;
  if (typeof user.agent === 'number' && user.agent > 0) return { type: 'agent', id: user.agent };
  if (user.companies?.length) return { type: 'company', id: user.companies[0].id };
  if (user.sites?.length) return { type: 'site', id: user.sites[0].id };
  return null;
}
