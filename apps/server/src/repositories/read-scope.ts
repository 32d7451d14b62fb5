import type { ScopeKind } from '@forecourt/contract/scope';

/** The place a read is about: an agent, a company or a site (every event table carries all three ids). */
export interface ReadScope {
  kind: ScopeKind;
  id: number;
}

export const scopeColumn = (scope: ReadScope, alias: string) =>
  `${alias}.${scope.kind === 'agent' ? 'agent_id' : scope.kind === 'company' ? 'company_id' : 'site_id'}`;

/** The scope filter on the `sites` table itself (aliased `s`). */
export const siteColumn = (scope: ReadScope) => (scope.kind === 'site' ? 's.id' : scopeColumn(scope, 's'));

/** Positional parameters for hand-written SQL: `p.add(value)` answers its `$n`. */
export class Params {
  readonly values: unknown[] = [];
  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

/** Common log filters: the cursor, a time window and a free-text search. */
export interface LogFilters {
  limit: number;
  /** Only rows with an id below this one (the cursor of the last row seen). */
  before?: string;
  from?: string;
  to?: string;
  q?: string;
  /** A terminal number or numeric id. */
  terminal?: string;
}

/** `%`, `_` and `\` match themselves in an ILIKE pattern. */
export const likePattern = (q: string) => `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * Appends the common log filters to `where`: cursor on `idCol`, window on `timeCol`, search over `searchCols`,
 * terminal (number or id) on the terminal alias `t`.
 */
export function addLogFilters(
  where: string[],
  p: Params,
  f: LogFilters,
  cols: { id: string; time: string; search: string[]; terminal?: string },
) {
  if (f.before) where.push(`${cols.id} < ${p.add(f.before)}::bigint`);
  if (f.from) where.push(`${cols.time} >= ${p.add(f.from)}::timestamptz`);
  if (f.to) where.push(`${cols.time} < ${p.add(f.to)}::timestamptz`);
  // PostgreSQL text cannot hold NUL: drop it rather than fail.
  const q = f.q?.replaceAll('\u0000', '').trim();
  if (q && cols.search.length) {
    const like = p.add(likePattern(q));
    where.push(`(${cols.search.map((c) => `${c} ilike ${like}`).join(' or ')})`);
  }
  if (f.terminal !== undefined && cols.terminal) {
    const term = f.terminal.replaceAll('\u0000', '').trim();
    const id = /^\d{1,9}$/.test(term) ? Number(term) : -1;
    where.push(`(${cols.terminal}.terminal_no = ${p.add(term)} or ${cols.terminal}.id = ${p.add(id)}::int)`);
  }
}

export const iso = (v: Date | string | null | undefined): string | null =>
  v === null || v === undefined ? null : new Date(v).toISOString();

/** pg answers bigint/count as strings, PGlite as numbers: normalise. */
export const num = (v: unknown): number => (typeof v === 'number' ? v : Number(v));

/** `nullableNum(null)` is null; anything else is `num` of it. */
export const nullableNum = (v: unknown): number | null => (v === null || v === undefined ? null : num(v));

/** Search, cursor and page size of an administration list. */
export interface ListOptions {
  q?: string;
  limit: number;
  before?: string;
}

/** `where …` with the common log filters (`addLogFilters`), newest first by `cols.id`, `f.limit` rows. */
export function logPageSql(
  where: string[],
  p: Params,
  f: LogFilters,
  cols: { id: string; time: string; search: string[]; terminal?: string },
): string {
  addLogFilters(where, p, f, cols);
  return `where ${where.join(' and ')} order by ${cols.id} desc limit ${p.add(f.limit)}`;
}

/** `where …` with `q` (search over `search`), `before` (cursor on `idCol`) and `limit`, newest first. */
export const pageSql = (where: string[], p: Params, idCol: string, o: ListOptions, search: string[]) =>
  logPageSql(where, p, { limit: o.limit, before: o.before, q: o.q }, { id: idCol, time: idCol, search });
