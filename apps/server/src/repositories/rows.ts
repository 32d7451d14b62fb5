import type { Table } from 'drizzle-orm';

/**
 * Row types come from the Drizzle schema (docs/decisions/0019-repositories-and-row-types.md): a repository writes
 * SQL by hand and types what it selects as `Row<typeof table, 'col' | ...>`, the table's columns under their SQL
 * names with the schema's types. A column renamed or retyped in `db/schema` breaks the repositories that read it at
 * compile time; no repository spells a table's shape again.
 */

type Columns<T extends Table> = T['_']['columns'];

/** node-postgres answers a bigint as a string (PGlite as a number): read such a column with `num()`. */
type Answered<C, V> = C extends { _: { columnType: 'PgBigSerial53' | 'PgBigInt53' } } ? V | string : V;

/** A whole row of `T` as hand-written SQL answers it: snake_case column names, the schema's value types. */
export type SqlRow<T extends Table> = {
  [K in keyof Columns<T> as Columns<T>[K]['_']['name']]: Answered<
    Columns<T>[K],
    T['$inferSelect'][K & keyof T['$inferSelect']]
  >;
};

/** The SQL name of one of `T`'s columns. */
export type ColumnOf<T extends Table> = keyof SqlRow<T> & string;

/** The columns `K` of a row of `T`. */
export type Row<T extends Table, K extends ColumnOf<T>> = Pick<SqlRow<T>, K>;

/** `alias.a, alias.b`: the select list of `columns` of `T` (checked against the schema), for SQL written by hand. */
export function selectList<T extends Table>(alias: string, columns: readonly ColumnOf<T>[]): string {
  return columns.map((c) => `${alias}.${c}`).join(', ');
}
