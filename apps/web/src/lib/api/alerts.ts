import { type Alert, AlertSchema } from '@forecourt/contract/fleet';
import type { CurrentUser } from '@forecourt/contract/users';
import { queryOptions } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '../api-client.ts';
import type { Scope } from '../scope.ts';
import { cleanParams, polled } from './live.ts';
import { QUERY_ROOTS, scopedKey } from './query-keys.ts';

export interface AlertFilters {
  limit_to?: number;
  event_type?: readonly number[];
}

const AlertListSchema = z.array(AlertSchema);

/** GET /api/alerts/{agent|company|site}/{id}/: newest first. */
export function getAlerts(scope: Scope, filters: AlertFilters = {}, signal?: AbortSignal): Promise<Alert[]> {
  return api.get(`/api/alerts/${scope.kind}/${scope.id}/`, {
    query: cleanParams({ limit_to: filters.limit_to, event_type: filters.event_type?.slice() }),
    schema: AlertListSchema,
    signal,
  });
}

/** The alerts widget, the hardware issues widget (event types filter) and the bell all read these. */
export const alertQueries = {
  all: [QUERY_ROOTS.alerts] as const,
  scope: (scope: Scope) => scopedKey(QUERY_ROOTS.alerts, scope),
  list: (scope: Scope, filters: AlertFilters = {}) =>
    queryOptions({
      queryKey: [
        ...alertQueries.scope(scope),
        cleanParams({ limit_to: filters.limit_to, event_type: filters.event_type?.slice() }),
      ] as const,
      queryFn: ({ signal }) => getAlerts(scope, filters, signal),
      ...polled,
    }),
};

/**
 * Where notifications come from, by user kind: the agent's alerts if the agent id is a positive
 * number; else the first company's; else the first site's; otherwise none.
 */
export function notificationScope(
  user: Pick<CurrentUser, 'agent' | 'companies' | 'sites'> | null,
): Scope | null {
  if (!user) return null;
  if (typeof user.agent === 'number' && user.agent > 0) return { kind: 'agent', id: user.agent };
  if (user.companies?.length) return { kind: 'company', id: user.companies[0].id };
  if (user.sites?.length) return { kind: 'site', id: user.sites[0].id };
  return null;
}

export type { Alert };
