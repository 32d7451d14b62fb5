import { ErrorBodySchema } from '@forecourt/contract/common';
import { neutraliseCsvCell } from '@forecourt/contract/csv';
import { LIVE_CURSOR_HEADER } from '@forecourt/contract/live-cursor';
import type { ScopeKind } from '@forecourt/contract/scope';
import { stringify } from 'csv-stringify/sync';
import type { FastifyInstance, FastifyReply, FastifyRequest, preValidationHookHandler } from 'fastify';
import { z } from 'zod';
import { queryKey, sendSnapshot } from '../plugins/snapshot-cache.ts';
import type { ReadScope } from '../repositories/read-scope.ts';
import { notFound } from './errors.ts';

/** A CSV column: header and how to read it from a row. */
export type CsvColumn<Row> = readonly [header: string, value: (row: Row) => unknown];

interface ReadContext<Query> {
  /** Whom the read is scoped to; for a terminal's read, the terminal's site. */
  scope: ReadScope;
  /** The entity of the path (a terminal's reads need its id). */
  target: { kind: ScopeKind | 'terminal'; id: number };
  query: Query;
  request: FastifyRequest;
}

interface BaseOptions<Q extends z.ZodType, R extends z.ZodType> {
  url: string;
  kind: ScopeKind | 'terminal';
  /** Path parameter holding the scoped id (default 'id'). */
  param?: string;
  summary: string;
  description?: string;
  tags: string[];
  query?: Q;
  response: R;
  /**
   * For nested paths like `/company/:id/site/:siteId/...`: the caller must reach the company of `:id` too,
   * and the site must belong to it (else 404).
   */
  parent?: 'company';
}

export type DataRouteOptions<Q extends z.ZodType, R extends z.ZodType> = BaseOptions<Q, R> &
  (
    | { load: (ctx: ReadContext<z.output<Q>>) => Promise<z.input<R>>; loadJson?: never }
    | {
        /**
         * For large answers: the JSON text of the answer, built by the database (e.g. with `json_agg`), so
         * the event loop neither parses nor serialises it. It must have the `response` shape; tests parse it.
         */
        loadJson: (ctx: ReadContext<z.output<Q>>) => Promise<string>;
        load?: never;
      }
  );

export interface LogRouteOptions<Q extends z.ZodType, Row extends z.ZodType>
  extends BaseOptions<Q, z.ZodArray<Row>> {
  load: (ctx: ReadContext<z.output<Q>>) => Promise<Array<z.input<Row> & { cursor: string }>>;
  /** File name of the CSV download (without extension). */
  csvName: string;
  csv: readonly CsvColumn<z.output<Row>>[];
}

const EmptyQuery = z.object({});

function paramsSchema(names: string[]) {
  return z.object(Object.fromEntries(names.map((n) => [n, z.string().describe('Numeric id')])));
}

function pathParams(url: string): string[] {
  return [...url.matchAll(/:([A-Za-z]+)/g)].map((m) => m[1]!);
}

/**
 * The snapshot key: scope first (so writes can drop a scope by prefix), then the route and the parsed query. A
 * terminal's reads are kept under its site: a change names its site, so the terminal's readings, written a moment
 * ago, are never answered from a snapshot made before them.
 */
function snapshotKey(request: FastifyRequest, extra = ''): string {
  const t = request.target!;
  const scope =
    t.kind === 'terminal' && t.location.siteId !== null
      ? `site:${t.location.siteId}|terminal:${t.id}`
      : `${t.kind}:${t.id}`;
  return `${scope}|${request.routeOptions.url}|${queryKey(request.query)}${extra}`;
}

function scopeOf(request: FastifyRequest): ReadScope {
  const t = request.target!;
  if (t.kind === 'terminal' && t.location.siteId !== null) return { kind: 'site', id: t.location.siteId };
  return { kind: t.kind as ScopeKind, id: t.id };
}

function targetOf(request: FastifyRequest): ReadContext<unknown>['target'] {
  const t = request.target!;
  return { kind: t.kind as ScopeKind | 'terminal', id: t.id };
}

function hooks(app: FastifyInstance, opts: BaseOptions<z.ZodType, z.ZodType>): preValidationHookHandler[] {
  // Scope runs before validation: 401/403/404 come first, then 400 for a bad query.
  const list: preValidationHookHandler[] = [];
  if (opts.parent) list.push(app.scope(opts.parent, 'id') as unknown as preValidationHookHandler);
  list.push(app.scope(opts.kind, opts.param ?? 'id') as unknown as preValidationHookHandler);
  if (opts.parent) {
    list.push((async (request: FastifyRequest) => {
      const parentId = Number((request.params as { id: string }).id);
      if (request.target?.location.companyId !== parentId)
        throw notFound(`No such ${opts.kind} in this company.`);
    }) as unknown as preValidationHookHandler);
  }
  return list;
}

/** What every read's answer carries besides its body (plugins/live-cursor.ts). */
const READ_HEADERS_NOTE =
  '`X-Live-Cursor`: the id of a change such that this answer holds every change up to it (resume GET /api/live after it with `Last-Event-ID`).';

function schemaOf(opts: BaseOptions<z.ZodType, z.ZodType>, response: z.ZodType) {
  return {
    tags: opts.tags,
    summary: opts.summary,
    description: `${opts.description ?? ''}\n\n${READ_HEADERS_NOTE}`.trim(),
    security: [{ jwt: [] }],
    params: paramsSchema(pathParams(opts.url)),
    querystring: opts.query ?? EmptyQuery,
    response: {
      200: response,
      304: z.null().describe('Not modified: the If-None-Match ETag is current'),
      400: ErrorBodySchema,
      401: ErrorBodySchema,
      403: ErrorBodySchema,
      404: ErrorBodySchema,
    },
  };
}

/**
 * The header of a snapshot's answers (plugins/live-cursor.ts): the feed's cursor when the build began, so the
 * snapshot holds every change up to it. None while the feed has not read yet.
 */
function builtAtCursor(app: FastifyInstance): Record<string, string> {
  return app.feed.isReady ? { [LIVE_CURSOR_HEADER]: String(app.feed.cursor) } : {};
}

/**
 * A client told of change N by a stream (maybe on another node) refetches: the snapshot it gets must not predate
 * N, so this node first waits (up to 1 s) until its own feed has passed N and dropped the snapshots N touched.
 */
async function awaitLiveCursor(app: FastifyInstance, request: FastifyRequest) {
  const raw = request.headers[LIVE_CURSOR_HEADER];
  if (typeof raw !== 'string' || !/^\d{1,15}$/.test(raw)) return;
  const id = Number(raw);
  if (id > app.feed.cursor) await app.feed.caughtUp(id, 1_000);
}

/**
 * A polled read: scoped, answered from a snapshot shared by every caller of the same (route, scope id, query)
 * for a short interval, with an ETag (304 when the caller has it).
 */
export function dataRoute<Q extends z.ZodType, R extends z.ZodType>(
  app: FastifyInstance,
  opts: DataRouteOptions<Q, R>,
) {
  app.get(
    opts.url,
    { preValidation: hooks(app, opts as never), schema: schemaOf(opts as never, opts.response) },
    async (request: FastifyRequest, reply: FastifyReply) => {
      await awaitLiveCursor(app, request);
      const snap = await app.snapshots.get(snapshotKey(request), async () => {
        const headers = builtAtCursor(app);
        const ctx = {
          scope: scopeOf(request),
          target: targetOf(request),
          query: request.query as z.output<Q>,
          request,
        };
        const body = opts.loadJson
          ? await opts.loadJson(ctx)
          : JSON.stringify(opts.response.parse(await opts.load(ctx)));
        return {
          body,
          contentType: 'application/json; charset=utf-8',
          headers,
        };
      });
      return sendSnapshot(request, reply, snap);
    },
  );
}

function wantsCsv(request: FastifyRequest): boolean {
  const format = (request.query as { format?: string }).format;
  if (format) return format === 'csv';
  const accept = request.headers.accept ?? '';
  return /\btext\/csv\b/i.test(accept) && !/\bapplication\/json\b/i.test(accept.split('text/csv')[0] ?? '');
}

function nextLink(request: FastifyRequest, cursor: string): string {
  const [path, search = ''] = request.url.split('?');
  const params = new URLSearchParams(search);
  params.set('before', cursor);
  return `<${path}?${params.toString()}>; rel="next"`;
}

/** One CSV cell; text that a spreadsheet would run as a formula is neutralised (packages/contract/src/csv.ts). */
const csvCell = (v: unknown): string | number | null => {
  if (v === null || v === undefined) return '';
  if (typeof v === 'number') return v;
  if (typeof v === 'string') return neutraliseCsvCell(v);
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  return neutraliseCsvCell(JSON.stringify(v));
};

/**
 * A log page: newest first, `limit_to` rows older than `before`; `X-Next-Cursor` and `Link: rel="next"` while
 * the page is full. JSON, or CSV with `?format=csv` / `Accept: text/csv`. Shared snapshots and ETags as above.
 */
export function logRoute<Q extends z.ZodType, Row extends z.ZodType>(
  app: FastifyInstance,
  opts: LogRouteOptions<Q, Row>,
) {
  const list = opts.response;
  app.get(
    opts.url,
    {
      preValidation: hooks(app, opts as never),
      schema: {
        ...schemaOf(opts as never, list),
        description:
          `${opts.description ?? ''}\n\nPaged: \`limit_to\` rows per page, \`before\` = the \`cursor\` of the last row seen (also in \`X-Next-Cursor\` and \`Link\`). CSV with \`?format=csv\` or \`Accept: text/csv\`.\n\n${READ_HEADERS_NOTE}`.trim(),
      },
    },
    async (request: FastifyRequest, reply: FastifyReply) => {
      const csv = wantsCsv(request);
      reply.header('vary', 'Accept');
      await awaitLiveCursor(app, request);
      const snap = await app.snapshots.get(snapshotKey(request, csv ? '|csv' : ''), async () => {
        const headers = builtAtCursor(app);
        const query = request.query as z.output<Q> & { limit_to: number };
        const rows = await opts.load({ scope: scopeOf(request), target: targetOf(request), query, request });
        const parsed = list.parse(rows) as Array<z.output<Row>>;
        const last = rows.at(-1);
        if (last && rows.length >= query.limit_to) {
          headers['x-next-cursor'] = last.cursor;
          headers.link = nextLink(request, last.cursor);
        }
        if (!csv)
          return { body: JSON.stringify(parsed), contentType: 'application/json; charset=utf-8', headers };
        headers['content-disposition'] = `attachment; filename="${opts.csvName}.csv"`;
        const body = stringify(
          parsed.map((row) => opts.csv.map(([, value]) => csvCell(value(row)))),
          { header: true, columns: opts.csv.map(([header]) => header) },
        );
        return { body, contentType: 'text/csv; charset=utf-8', headers };
      });
      return sendSnapshot(request, reply, snap);
    },
  );
}
