import { ADMIN_ENTITIES, ADMIN_REQUEST_SCHEMAS } from '@forecourt/contract/admin';
import type { AdminEntity } from '@forecourt/contract/admin-entities';
import { type Column, getTableColumns, getTableName, is } from 'drizzle-orm';
import { getTableConfig, PgTable } from 'drizzle-orm/pg-core';
import type { z } from 'zod';
import type { Database, QueryFn } from '../db/client.ts';
import * as org from '../db/schema/org.ts';
import { type ListOptions, num, Params, pageSql } from './read-scope.ts';
import type { Tx } from './unit-of-work.ts';

/**
 * One administered entity's SQL, derived rather than written (docs/adding-an-entity.md): its table is the
 * `db/schema/org.ts` table named like the entity, its row the contract's `ADMIN_ENTITIES[name].row`, its list
 * filters the `<parent>_id` fields of its `ADMIN_REQUEST_SCHEMAS[name].list`. Fit for an entity of the ordinary
 * shape: every field of its row is a column of its table, it has `id` and `decommissioned_at`, a foreign key to
 * each of its `parents`, and either an `agent_id` of its own or a first parent that leads to one (a nozzle: pump,
 * site, `sites.agent_id`). Anything else keeps a repository written by hand.
 *
 * Every identifier in the SQL comes from the schema objects (and is checked to be a plain name); every value is a
 * parameter. A table that does not fit throws when the repository is created, that is when the app starts.
 */

/** An entity's object as its list, reads and writes answer it. */
export type AdminEntityObject<E extends AdminEntity> = z.infer<(typeof ADMIN_ENTITIES)[E]['row']>;
/** Its written fields: the object without its id. */
export type AdminEntityFields<E extends AdminEntity> = Omit<AdminEntityObject<E>, 'id'>;

/** An entity by id as the rules read it: its object, its agent (through its parents), whether it is live. */
export interface AdminEntityRow<E extends AdminEntity> {
  row: AdminEntityObject<E>;
  agent_id: number | null;
  decommissioned_at: Date | string | null;
  /**
   * The ids of the places above it, by column (a nozzle: `pump_id`, `site_id`, `company_id`): what its changes
   * name. Null where a link is empty.
   */
  place: Record<string, number | null>;
}

/** A list's options: search and paging, and `<parent>Id` for each `<parent>_id` filter of its list query. */
export type AdminEntityListOptions = ListOptions & { [parent: `${string}Id`]: number | undefined };

const PLAIN = /^[a-z_][a-z0-9_]*$/;
/** An identifier taken from the schema, refused unless it is a plain lower-case name. */
function ident(name: string): string {
  if (!PLAIN.test(name)) throw new Error(`admin entity SQL: "${name}" is not a plain identifier`);
  return name;
}

/** The `db/schema/org.ts` tables by SQL name. */
const ORG_TABLES = new Map<string, PgTable>(
  (Object.values(org) as unknown[])
    .filter((v): v is PgTable => is(v, PgTable))
    .map((t) => [getTableName(t), t]),
);

/** A table's columns by SQL name. */
const columnsOf = (table: PgTable) =>
  new Map<string, Column>(Object.values(getTableColumns(table)).map((c) => [c.name, c]));

/** The single-column foreign key of `table` to the table named `parent`: its column's SQL name. */
function linkTo(table: PgTable, parent: string): string {
  const links = getTableConfig(table)
    .foreignKeys.map((fk) => fk.reference())
    .filter((r) => getTableName(r.foreignTable) === parent && r.columns.length === 1);
  const [link] = links;
  if (links.length !== 1 || !link)
    throw new Error(`admin entity ${getTableName(table)}: needs one foreign key to ${parent}`);
  return ident(link.columns[0]!.name);
}

function tableOf(entity: string): PgTable {
  const table = ORG_TABLES.get(entity);
  if (!table) throw new Error(`admin entity ${entity}: db/schema/org.ts has no table named ${entity}`);
  return table;
}

/** How the entity reaches its agent: the joins up its first parents and the columns of the places on the way. */
function scopeChain(entity: AdminEntity) {
  const joins: string[] = [];
  const place: Array<{ sql: string; as: string }> = [];
  let alias = 'e';
  let current: AdminEntity = entity;
  for (let depth = 0; ; depth++) {
    if (depth > 8) throw new Error(`admin entity ${entity}: its parents never reach an agent_id`);
    const table = tableOf(current);
    const parents = ADMIN_ENTITIES[current].parents as readonly AdminEntity[];
    for (const parent of parents) {
      const column = linkTo(table, parent);
      if (!place.some((p) => p.as === column)) place.push({ sql: `${alias}.${column}`, as: column });
    }
    if (columnsOf(table).has('agent_id')) return { joins, place, agent: `${alias}.agent_id` };
    const [up] = parents;
    if (!up) throw new Error(`admin entity ${entity}: no agent_id and no parent to reach one through`);
    const next = `a${depth + 1}`;
    joins.push(`join ${ident(up)} ${next} on ${next}.id = ${alias}.${linkTo(table, up)}`);
    alias = next;
    current = up;
  }
}

/** Everything the SQL of one entity needs, checked against its table once. */
function entitySql(entity: AdminEntity) {
  const table = tableOf(entity);
  const name = ident(getTableName(table));
  const columns = columnsOf(table);
  for (const required of ['id', 'decommissioned_at'])
    if (!columns.has(required)) throw new Error(`admin entity ${entity}: its table has no ${required}`);
  const fields = Object.keys((ADMIN_ENTITIES[entity].row as unknown as z.ZodObject).shape);
  for (const f of fields)
    if (!columns.has(f)) throw new Error(`admin entity ${entity}: its row's ${f} is not a column of ${name}`);
  const links = new Set(
    (ADMIN_ENTITIES[entity].parents as readonly AdminEntity[]).map((parent) => linkTo(table, parent)),
  );
  // Each `<parent>_id` of the list query is a link of the table; it reaches the list as `<parent>Id`.
  const filters = Object.keys((ADMIN_REQUEST_SCHEMAS[entity].list as unknown as z.ZodObject).shape)
    .filter((key) => key.endsWith('_id'))
    .map((key) => {
      if (!links.has(key))
        throw new Error(`admin entity ${entity}: list filter ${key} is not a link to a parent`);
      return { column: key, option: key.replace(/_id$/, 'Id') as `${string}Id` };
    });
  // `q` searches the row's own text and number fields (not its id nor its links).
  const search = fields
    .filter((f) => f !== 'id' && !links.has(f))
    .flatMap((f) => {
      const type = columns.get(f)!.dataType;
      return type === 'string' ? [`e.${ident(f)}`] : type === 'number' ? [`e.${ident(f)}::text`] : [];
    });
  const chain = scopeChain(entity);
  const select = fields.map((f) => `e.${ident(f)}`).join(', ');
  const returning = fields.map(ident).join(', ');
  const from = `${name} e ${chain.joins.join(' ')}`;
  /** A row as the contract shapes it: timestamps as ISO text, numbers as numbers (pg answers bigint as text). */
  const shape = (r: Record<string, unknown>) =>
    Object.fromEntries(
      fields.map((f) => {
        const v = r[f];
        if (v instanceof Date) return [f, v.toISOString()];
        if (typeof v === 'string' && columns.get(f)!.dataType === 'number') return [f, num(v)];
        return [f, v];
      }),
    );
  /**
   * The given written fields, each a column of the row (never an unknown key, never the id), and `agent_id` where
   * the table has one of its own.
   */
  const written = (values: object) =>
    Object.entries(values).filter(([k, v]) => {
      if (k === 'id' || !(fields.includes(k) || (k === 'agent_id' && columns.has(k))))
        throw new Error(`admin entity ${entity}: ${k} is not a written field of its row`);
      return v !== undefined;
    });
  return { name, chain, filters, search, select, returning, from, shape, written };
}

/** The repository of one administered entity of the ordinary shape (see above). */
export function createAdminEntityRepository<E extends AdminEntity>(database: Database, entity: E) {
  const query: QueryFn = database.query.bind(database);
  const d = entitySql(entity);
  const shape = (r: Record<string, unknown>) => d.shape(r) as AdminEntityObject<E>;
  const linkOf = (parent: AdminEntity) => {
    if (!(ADMIN_ENTITIES[entity].parents as readonly AdminEntity[]).includes(parent))
      throw new Error(`admin entity ${entity}: ${parent} is not one of its parents`);
    return linkTo(tableOf(entity), parent);
  };
  return {
    entity,

    /** The agent's live rows (of one parent with `<parent>Id`), newest first, paged like every admin list. */
    async list(agentId: number, o: AdminEntityListOptions): Promise<Array<AdminEntityObject<E>>> {
      const p = new Params();
      const where = [`${d.chain.agent} = ${p.add(agentId)}`, 'e.decommissioned_at is null'];
      for (const f of d.filters) {
        const id = o[f.option];
        if (id !== undefined) where.push(`e.${f.column} = ${p.add(id)}`);
      }
      const rows = await query<Record<string, unknown>>(
        `select ${d.select} from ${d.from} ${pageSql(where, p, 'e.id', o, d.search)}`,
        p.values,
      );
      return rows.map(shape);
    },

    /** One row by id, decommissioned or not, with its agent and its places; null when there is none. */
    async byId(id: number, q: QueryFn = query): Promise<AdminEntityRow<E> | null> {
      const place = d.chain.place.map((c) => `, ${c.sql} as place_${c.as}`).join('');
      const [r] = await q<Record<string, unknown>>(
        `select ${d.select}, ${d.chain.agent} as scope_agent_id, e.decommissioned_at as scope_decommissioned_at${place}
           from ${d.from} where e.id = $1`,
        [id],
      );
      if (!r) return null;
      return {
        row: shape(r),
        agent_id: r.scope_agent_id == null ? null : num(r.scope_agent_id),
        decommissioned_at: (r.scope_decommissioned_at as Date | string | null) ?? null,
        place: Object.fromEntries(
          d.chain.place.map((c) => {
            const v = r[`place_${c.as}`];
            return [c.as, v == null ? null : num(v)];
          }),
        ),
      };
    },

    /** Inserts one row (with its `agent_id` where its table has one); answers it. */
    async insert(
      tx: Tx,
      values: AdminEntityFields<E> & { agent_id?: number },
    ): Promise<AdminEntityObject<E>> {
      const entries = d.written(values);
      const p = new Params();
      const [r] = await tx<Record<string, unknown>>(
        `insert into ${d.name} (${entries.map(([k]) => ident(k)).join(', ')})
         values (${entries.map(([, v]) => p.add(v)).join(', ')}) returning ${d.returning}`,
        p.values,
      );
      return shape(r!);
    },

    /** Writes the given fields of a row (those left out, or undefined, keep their value); answers it, or null. */
    async update(
      tx: Tx,
      id: number,
      values: Partial<AdminEntityFields<E>>,
    ): Promise<AdminEntityObject<E> | null> {
      const entries = d.written(values);
      const p = new Params();
      const at = p.add(id);
      const set = entries.length
        ? entries.map(([k, v]) => `${ident(k)} = ${p.add(v)}`).join(', ')
        : 'id = id';
      const [r] = await tx<Record<string, unknown>>(
        `update ${d.name} set ${set} where id = ${at} returning ${d.returning}`,
        p.values,
      );
      return r ? shape(r) : null;
    },

    async decommission(tx: Tx, id: number): Promise<void> {
      await tx(`update ${d.name} set decommissioned_at = now() where id = $1`, [id]);
    },

    /** The live rows of one parent (a pump's nozzles), oldest first: the children that block its decommissioning. */
    async liveOf(q: QueryFn, parent: AdminEntity, parentId: number): Promise<Array<AdminEntityObject<E>>> {
      const rows = await q<Record<string, unknown>>(
        `select ${d.select} from ${d.name} e where e.${linkOf(parent)} = $1 and e.decommissioned_at is null
          order by e.id`,
        [parentId],
      );
      return rows.map(shape);
    },

    /** How many live rows one parent has. */
    async countLive(q: QueryFn, parent: AdminEntity, parentId: number): Promise<number> {
      const [r] = await q<{ n: number | string }>(
        `select count(*) as n from ${d.name} e where e.${linkOf(parent)} = $1 and e.decommissioned_at is null`,
        [parentId],
      );
      return num(r?.n ?? 0);
    },
  };
}
export type AdminEntityRepository<E extends AdminEntity> = ReturnType<typeof createAdminEntityRepository<E>>;

/**
 * A repository for every administered entity without one written by hand (`handWritten` holds those: whatever
 * `app.repos` already has under the entity's name), so a new entity of the ordinary shape adds no line.
 */
export function adminEntityRepositories<H extends object>(
  database: Database,
  names: readonly AdminEntity[],
  handWritten: H,
): { [E in Exclude<AdminEntity, keyof H>]: AdminEntityRepository<E> } {
  return Object.fromEntries(
    names.filter((n) => !(n in handWritten)).map((n) => [n, createAdminEntityRepository(database, n)]),
  ) as { [E in Exclude<AdminEntity, keyof H>]: AdminEntityRepository<E> };
}
