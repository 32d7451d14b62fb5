import {
  AlertsReportRowSchema,
  AvailabilityReportSchema,
  type ReportGroup,
  type ReportScheduleCreateInput,
  ReportScheduleSchema,
} from '@forecourt/contract/reports';
import { queryOptions } from '@tanstack/react-query';
import { z } from 'zod';
import { api, apiUrl, authHeaders, errorsFromBody } from '../../../../lib/api-client.ts';
import { sessionStore } from '../../../../lib/auth/session.ts';
import type { Scope } from '../../../../lib/scope.ts';

/** A report's period as the API takes it (ISO 8601). */
export interface Period {
  from: string;
  to: string;
}

const base = (scope: Scope) => `/api/reports/${scope.kind}/${scope.id}`;

export const reportQueries = {
  availability: (scope: Scope, period: Period, groupBy: ReportGroup) =>
    queryOptions({
      queryKey: ['reports', scope.kind, scope.id, 'availability', { ...period, group_by: groupBy }] as const,
      queryFn: ({ signal }) =>
        api.get(`${base(scope)}/availability/`, {
          query: { ...period, group_by: groupBy },
          schema: AvailabilityReportSchema,
          signal,
        }),
    }),
  alerts: (scope: Scope, period: Period) =>
    queryOptions({
      queryKey: ['reports', scope.kind, scope.id, 'alerts', period] as const,
      queryFn: ({ signal }) =>
        api.get(`${base(scope)}/alerts/`, {
          query: { ...period },
          schema: z.array(AlertsReportRowSchema),
          signal,
        }),
    }),
  schedules: () =>
    queryOptions({
      queryKey: ['reports', 'schedules'] as const,
      queryFn: ({ signal }) =>
        api.get('/api/reports/schedules/', {
          query: { limit_to: 100 },
          schema: z.array(ReportScheduleSchema),
          signal,
        }),
    }),
};

export const createSchedule = (body: ReportScheduleCreateInput) =>
  api.post('/api/reports/schedules/', body, { schema: ReportScheduleSchema });
export const deleteSchedule = (id: number) =>
  api.delete(`/api/reports/schedules/${id}/`, { schema: ReportScheduleSchema });
export const runSchedule = (id: number) => api.post(`/api/reports/schedules/${id}/run/`);

/** The URL of a report file (CSV or PDF) of `scope` over `period`. */
export function reportFileUrl(
  scope: Scope,
  report: 'availability' | 'alerts',
  period: Period,
  format: 'csv' | 'pdf',
  groupBy?: ReportGroup,
): string {
  return apiUrl(`${base(scope)}/${report}/`, { ...period, group_by: groupBy, format });
}

/**
 * Downloads a report file: fetched with the session's token (a plain link cannot carry it), then saved under the
 * name the server gives it.
 */
export async function downloadReport(url: string): Promise<void> {
  const response = await fetch(url, { headers: authHeaders(sessionStore.get().token) });
  if (!response.ok) {
    const body = await response.json().catch(() => null);
    throw new Error(errorsFromBody(body)[0] ?? `HTTP ${response.status}`);
  }
  const name = /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1] ?? 'report';
  const href = URL.createObjectURL(await response.blob());
  const a = document.createElement('a');
  a.href = href;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(href), 60_000);
}

/** The presets of the period picker; `custom` takes two dates. */
export const PERIOD_PRESETS = ['7d', '30d', 'last-month', 'custom'] as const;
export type PeriodPreset = (typeof PERIOD_PRESETS)[number];

const DAY = 86_400_000;

/** The period of a preset as of `now` (minutes rounded down, so a refetch asks the same); custom dates in UTC. */
export function periodOf(
  preset: PeriodPreset,
  now: Date,
  custom: { from: string; to: string },
): Period | null {
  const end = new Date(Math.floor(now.getTime() / 60_000) * 60_000);
  if (preset === '7d')
    return { from: new Date(end.getTime() - 7 * DAY).toISOString(), to: end.toISOString() };
  if (preset === '30d')
    return { from: new Date(end.getTime() - 30 * DAY).toISOString(), to: end.toISOString() };
  if (preset === 'last-month') {
    const to = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
    const from = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1));
    return { from: from.toISOString(), to: to.toISOString() };
  }
  if (!/^\d{4}-\d{2}-\d{2}$/.test(custom.from) || !/^\d{4}-\d{2}-\d{2}$/.test(custom.to)) return null;
  const from = new Date(`${custom.from}T00:00:00Z`);
  const to = new Date(Date.parse(`${custom.to}T00:00:00Z`) + DAY);
  return to > from ? { from: from.toISOString(), to: to.toISOString() } : null;
}
