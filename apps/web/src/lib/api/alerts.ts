import {
  type Alert,
  AlertCountSchema,
  AlertSchema,
  type AlertSite,
  AlertSiteSchema,
  type AlertState,
} from '@forecourt/contract/fleet';
import { type CurrentUser, type NotificationPrefs, NotificationPrefsSchema } from '@forecourt/contract/users';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '../api-client.ts';
import type { Scope } from '../scope.ts';
import { cleanParams, polled } from './live.ts';
import { QUERY_ROOTS, scopedKey } from './query-keys.ts';

export interface AlertFilters {
  limit_to?: number;
  event_type?: readonly number[];
  state?: AlertState;
  acknowledged?: boolean;
  /** false: leave out alerts raised in a maintenance window (the widgets and the bell); true: only those. */
  silenced?: boolean;
  sort?: 'newest' | 'severity';
}

const params = (f: AlertFilters) =>
  cleanParams({
    limit_to: f.limit_to,
    event_type: f.event_type?.slice(),
    state: f.state,
    acknowledged: f.acknowledged === undefined ? undefined : String(f.acknowledged),
    silenced: f.silenced === undefined ? undefined : String(f.silenced),
    sort: f.sort,
  });

const AlertListSchema = z.array(AlertSchema);

/** GET /api/alerts/{agent|company|site}/{id}/: newest first. */
export function getAlerts(scope: Scope, filters: AlertFilters = {}, signal?: AbortSignal): Promise<Alert[]> {
  return api.get(`/api/alerts/${scope.kind}/${scope.id}/`, {
    query: params(filters),
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
      queryKey: [...alertQueries.scope(scope), params(filters)] as const,
      queryFn: ({ signal }) => getAlerts(scope, filters, signal),
      ...polled,
    }),
  /** GET /api/alerts/{kind}/{id}/count/: how many alerts match (the bell). */
  count: (scope: Scope, filters: Pick<AlertFilters, 'state' | 'acknowledged'> = {}) =>
    queryOptions({
      queryKey: [...alertQueries.scope(scope), 'count', params(filters)] as const,
      queryFn: ({ signal }) =>
        api.get(`/api/alerts/${scope.kind}/${scope.id}/count/`, {
          query: params(filters),
          schema: AlertCountSchema,
          signal,
        }),
      ...polled,
    }),
  /** GET /api/alerts/{agent|company}/{id}/sites/: sites with active alerts, worst first. */
  sites: (scope: Scope) =>
    queryOptions({
      queryKey: [...alertQueries.scope(scope), 'sites'] as const,
      queryFn: ({ signal }): Promise<AlertSite[]> =>
        api.get(`/api/alerts/${scope.kind}/${scope.id}/sites/`, { schema: z.array(AlertSiteSchema), signal }),
      ...polled,
    }),
};

/** POST /api/alerts/{id}/ack/ `{note?}`: answers the alert (acknowledging again keeps the first). */
export function ackAlert(id: number, note?: string): Promise<Alert> {
  return api.post(`/api/alerts/${id}/ack/`, note ? { note } : {}, { schema: AlertSchema });
}

/** Acknowledges an alert, then refreshes every alert list, count and log that may show it. */
export function useAckAlert() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, note }: { id: number; note?: string }) => ackAlert(id, note),
    onSuccess: async () => {
      await Promise.all([
        client.invalidateQueries({ queryKey: [QUERY_ROOTS.alerts] }),
        client.invalidateQueries({ queryKey: [QUERY_ROOTS.logs] }),
      ]);
    },
  });
}

/** GET|PUT /api/user/notifications/: the alert mail preference of the signed-in user. */
export const notificationPrefsQuery = () =>
  queryOptions({
    queryKey: [QUERY_ROOTS.alerts, 'notification-prefs'] as const,
    queryFn: ({ signal }) => api.get('/api/user/notifications/', { schema: NotificationPrefsSchema, signal }),
  });

export function saveNotificationPrefs(prefs: NotificationPrefs): Promise<NotificationPrefs> {
  return api.put('/api/user/notifications/', prefs, { schema: NotificationPrefsSchema });
}

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
