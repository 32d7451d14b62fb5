import type { LogParams } from '../../../../lib/api/logs.ts';
import type { LogFilter, LogKind } from './log-kinds.tsx';
import { dayStartInZone } from './log-time.ts';

export const PAGE_SIZES = [25, 50, 100, 200] as const;
export const DEFAULT_PAGE_SIZE = 50;

/**
 * What a log screen shows, exactly as the URL query holds it (`?q=...&event_type=1&event_type=2&from=2026-11-01`),
 * so a copied link reopens the same view. Dates are calendar days in the screen's zone.
 */
export interface LogView {
  q: string;
  from: string;
  to: string;
  limit: number;
  /** The log's own filters by name; repeatable ones are lists. */
  filters: Record<string, string | string[]>;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

export function readView(params: URLSearchParams, kind: LogKind): LogView {
  const limit = Number(params.get('limit_to'));
  const filters: LogView['filters'] = {};
  for (const f of kind.filters) {
    if (f.type === 'multi') {
      const values = params.getAll(f.name).filter(Boolean);
      if (values.length) filters[f.name] = values;
    } else {
      const value = params.get(f.name)?.trim();
      if (value) filters[f.name] = value;
    }
  }
  const day = (name: string) => {
    const v = params.get(name) ?? '';
    return DAY.test(v) ? v : '';
  };
  return {
    q: params.get('q') ?? '',
    from: day('from'),
    to: day('to'),
    limit: (PAGE_SIZES as readonly number[]).includes(limit) ? limit : DEFAULT_PAGE_SIZE,
    filters,
  };
}

/** The URL query of a view; empty values and the default page size are left out. */
export function writeView(view: LogView): URLSearchParams {
  const out = new URLSearchParams();
  if (view.q.trim()) out.set('q', view.q);
  for (const [name, value] of Object.entries(view.filters)) {
    if (Array.isArray(value)) for (const v of value) out.append(name, v);
    else if (value.trim()) out.set(name, value);
  }
  if (view.from) out.set('from', view.from);
  if (view.to) out.set('to', view.to);
  if (view.limit !== DEFAULT_PAGE_SIZE) out.set('limit_to', String(view.limit));
  return out;
}

export function hasFilters(view: LogView): boolean {
  return Boolean(view.q.trim() || view.from || view.to || Object.keys(view.filters).length);
}

/**
 * The API query of a view: days become instants in `zone` (`to` is inclusive, so the next midnight); a filter with
 * its own `toApi` (of `filters`, the log's) says what it sends, set or not.
 */
export function apiParams(
  view: LogView,
  zone: string | undefined,
  filters: readonly LogFilter[] = [],
): LogParams {
  const out: LogParams = {};
  if (view.q.trim()) out.q = view.q.trim();
  const own = new Map(filters.filter((f) => f.toApi).map((f) => [f.name, f.toApi!]));
  for (const [name, value] of Object.entries(view.filters)) if (!own.has(name)) out[name] = value;
  for (const [name, toApi] of own) Object.assign(out, toApi(view.filters[name]));
  const from = view.from ? dayStartInZone(view.from, zone) : undefined;
  const to = view.to ? dayStartInZone(view.to, zone, 1) : undefined;
  if (from) out.from = from;
  if (to) out.to = to;
  return out;
}
