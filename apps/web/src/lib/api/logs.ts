import { CompanyDetailSchema, SiteDetailSchema, TimeZoneSchema } from '@forecourt/contract/fleet';
import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import { type ZodType, z } from 'zod';
import { ApiError, api, apiUrl, authHeaders, errorsFromBody } from '../api-client.ts';
import { sessionStore } from '../auth/session.ts';

export type LogScopeType = 'agent' | 'company' | 'site';

/** Whose log: an agent, a company or a site; a site may be reached through its company (hardware log). */
export interface LogScope {
  type: LogScopeType;
  id: number;
  /** The company in `company/{companyId}/site/{siteId}/...` paths. */
  companyId?: number;
}

/** Filter values as kept in the URL: one string, or several for repeatable filters. */
export type LogParams = Record<string, string | string[]>;

/** The API path of a log (docs/api-logs.md): `/api/{scope}/{id}/{segment}/`. */
export function logApiPath(scope: LogScope, segment: string): string {
  const base =
    scope.type === 'site' && scope.companyId !== undefined
      ? `/api/company/${scope.companyId}/site/${scope.id}`
      : `/api/${scope.type}/${scope.id}`;
  return `${base}/${segment}/`;
}

/** `alert-log-agent-1.csv`, `hardware-log-company-1-site-2.csv`. */
export function csvFileName(kind: string, scope: LogScope): string {
  const owner =
    scope.type === 'site' && scope.companyId !== undefined
      ? `company-${scope.companyId}-site-${scope.id}`
      : `${scope.type}-${scope.id}`;
  return `${kind}-log-${owner}.csv`;
}

function sortedParams(params: LogParams): LogParams {
  const out: LogParams = {};
  for (const key of Object.keys(params).sort()) {
    const v = params[key];
    if (v === undefined || v === '' || (Array.isArray(v) && v.length === 0)) continue;
    out[key] = v;
  }
  return out;
}

export interface LogPage<Row> {
  rows: Row[];
  /** Cursor of the next (older) page, or null when this page was the last. */
  next: string | null;
}

/** One page: `limit_to` rows older than `before`. A full page may have more after it. */
export async function getLogPage<Row extends { cursor: string }>(
  path: string,
  schema: ZodType<Row>,
  params: LogParams,
  limit: number,
  before?: string,
  signal?: AbortSignal,
): Promise<LogPage<Row>> {
  const rows = await api.get(path, {
    query: { ...params, limit_to: limit, before },
    schema: z.array(schema),
    signal,
  });
  const last = rows.at(-1);
  return { rows, next: last && rows.length >= limit ? last.cursor : null };
}

/** The pages of one log view, keyed by the path and every filter so each view is cached on its own. */
export function logPagesQueryOptions<Row extends { cursor: string }>(
  path: string,
  schema: ZodType<Row>,
  params: LogParams,
  limit: number,
) {
  const filters = sortedParams(params);
  return infiniteQueryOptions({
    queryKey: ['logs', path, filters, limit] as const,
    queryFn: ({ pageParam, signal }) => getLogPage(path, schema, filters, limit, pageParam, signal),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (page: LogPage<Row>) => page.next ?? undefined,
    staleTime: 10_000,
  });
}

/**
 * Download the log as CSV from the server (same filters, with the auth header) and hand it to the
 * browser as a file. `limit` rows, newest first: pass the number of rows on screen to get exactly them.
 */
export async function downloadLogCsv(path: string, params: LogParams, limit: number, fileName: string) {
  const token = sessionStore.get().token;
  let response: Response;
  try {
    response = await fetch(
      apiUrl(path, { ...sortedParams(params), limit_to: Math.min(Math.max(limit, 1), 1000), format: 'csv' }),
      { headers: { Accept: 'text/csv', ...authHeaders(token) } },
    );
  } catch (error) {
    throw new ApiError({ status: 0, kind: 'network', errors: [], message: (error as Error)?.message });
  }
  if (!response.ok) {
    let body: unknown = null;
    try {
      body = await response.json();
    } catch {
      /* not JSON */
    }
    throw new ApiError({ status: response.status, kind: 'http', errors: errorsFromBody(body), body });
  }
  const blob = await response.blob();
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.style.display = 'none';
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
  return blob;
}

export function siteDetailQueryOptions(siteId: number) {
  return queryOptions({
    queryKey: ['site', 'detail', siteId] as const,
    queryFn: ({ signal }) => api.get(`/api/site/detail/${siteId}/`, { schema: SiteDetailSchema, signal }),
    staleTime: 5 * 60_000,
  });
}

export function companyDetailQueryOptions(companyId: number) {
  return queryOptions({
    queryKey: ['company', 'detail', companyId] as const,
    queryFn: ({ signal }) =>
      api.get(`/api/company/detail/${companyId}/`, { schema: CompanyDetailSchema, signal }),
    staleTime: 5 * 60_000,
  });
}

/** The time zones of an agent or company; the first is the one its dates are entered in. */
export function scopeTimeZonesQueryOptions(type: 'agent' | 'company', id: number) {
  return queryOptions({
    queryKey: ['time-zones', type, id] as const,
    queryFn: ({ signal }) =>
      api.get(`/api/${type}/${id}/time/zones/`, { schema: z.array(TimeZoneSchema), signal }),
    staleTime: 5 * 60_000,
  });
}
