import type { QueryFn } from '../client.ts';

export type PgType =
  | 'int'
  | 'bigint'
  | 'smallint'
  | 'text'
  | 'float8'
  | 'numeric'
  | 'timestamptz'
  | 'bool'
  | 'jsonb';
export type Cell = string | number | boolean | Date | null;

function literalItem(value: Cell): string {
  if (value === null) return 'NULL';
  if (value instanceof Date) return `"${value.toISOString()}"`;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new Error(`bulk insert: not a finite number: ${value}`);
    return String(value);
  }
  if (typeof value === 'boolean') return value ? 't' : 'f';
  return `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

/** A PostgreSQL array literal ('{1,2,NULL}'), passed as one text parameter: the same on PGlite and pg. */
export function arrayLiteral(values: readonly Cell[]): string {
  return `{${values.map(literalItem).join(',')}}`;
}

/**
 * One `insert ... select * from unnest(...)` per chunk: set-based, ~3x faster than a multi-row insert
 * builder on PGlite. `rows` are tuples in the order of `columns`; jsonb cells are given as JSON text.
 */
export async function bulkInsert(
  query: QueryFn,
  table: string,
  columns: readonly (readonly [name: string, type: PgType])[],
  rows: readonly (readonly Cell[])[],
  chunk = 50_000,
): Promise<void> {
  const names = columns.map(([n]) => `"${n}"`).join(', ');
  const arrays = columns.map(([, type], i) => `$${i + 1}::${type === 'jsonb' ? 'text' : type}[]`).join(', ');
  const selects = columns.map(([, type], i) => (type === 'jsonb' ? `c${i}::jsonb` : `c${i}`)).join(', ');
  const aliases = columns.map((_, i) => `c${i}`).join(', ');
  const text = `insert into "${table}" (${names}) select ${selects} from unnest(${arrays}) as u(${aliases})`;
  for (let start = 0; start < rows.length; start += chunk) {
    const part = rows.slice(start, start + chunk);
    await query(
      text,
      columns.map((_, i) => arrayLiteral(part.map((r) => r[i] ?? null))),
    );
  }
}
