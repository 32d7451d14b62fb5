import { infiniteQueryOptions } from '@tanstack/react-query';
import { type ZodType, z } from 'zod';
import { ApiError, api, apiUrl, authHeaders, errorsFromBody } from '../api-client.ts';
import { sessionStore } from '../auth/session.ts';
import type { Scope } from '../scope.ts';
import { QUERY_ROOTS } from './query-keys.ts';

/** Whose log: an agent, a company or a site; a site may be reached through its company (hardware log). */
export interface LogScope extends Scope {
  /** The company in `company/{companyId}/site/{siteId}/...` paths. */
  companyId?: number;
}

/** Filter values as kept in the URL: one string, or several for repeatable filters. */
export type LogParams = Record<string, string | string[]>;

/** The API path of a log (docs/api-logs.md): `/api/{scope}/{id}/{segment}/`. */
export function logApiPath(scope: LogScope, segment: string): string {
  const base =
    scope.kind === 'site' && scope.companyId !== undefined
      ? `/api/company/${scope.companyId}/site/${scope.id}`
      : `/api/${scope.kind}/${scope.id}`;
  return `${base}/${segment}/`;
}

/** `alert-log-agent-1.csv`, `hardware-log-company-1-site-2.csv`. */
export function csvFileName(kind: string, scope: LogScope): string {
  const owner =
    scope.kind === 'site' && scope.companyId !== undefined
      ? `company-${scope.companyId}-site-${scope.id}`
      : `${scope.kind}-${scope.id}`;
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

export const logQueries = {
  all: [QUERY_ROOTS.logs] as const,
  /**
   * The pages of one log view, keyed `[logs, scope kind, scope id, segment, path, filters, limit]`: a
   * change in the fleet refreshes the logs of its agent, company and site (queriesTouchedBy), and each
   * view is cached on its own.
   */
  pages: <Row extends { cursor: string }>(
    scope: LogScope,
    segment: string,
    schema: ZodType<Row>,
    params: LogParams,
    limit: number,
  ) => {
    const path = logApiPath(scope, segment);
    const filters = sortedParams(params);
    return infiniteQueryOptions({
      queryKey: [...logQueries.all, scope.kind, scope.id, segment, path, filters, limit] as const,
      queryFn: ({ pageParam, signal }) => getLogPage(path, schema, filters, limit, pageParam, signal),
      initialPageParam: undefined as string | undefined,
      getNextPageParam: (page: LogPage<Row>) => page.next ?? undefined,
      staleTime: 10_000,
    });
  },
};

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
