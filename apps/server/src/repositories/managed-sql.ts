import type { Database } from '../db/client.ts';
import type { Visibility } from './rule-repository.ts';

/**
 * Managed by what the caller holds: an agent its agent's contact points, a company user those of its companies and
 * their sites. Parameters: agent id (or null) and company ids.
 */
export const managedBySql = (x: string, agent: string, companies: string) =>
  `(${x}.agent_id = ${agent} or ${x}.company_id = any(${companies}::int[]))`;

/** A table of the notification settings (contact points, policies) read with `managedBySql`. */
export interface ManagedTable {
  /** The table's name. */
  table: string;
  /** Its alias in `cols`. */
  x: string;
  /** The select list. */
  cols: string;
}

/** The rows of `t` that `v` manages, newest first: a page of `limit` below the id `before`. */
export function listManaged<R>(
  database: Database,
  t: ManagedTable,
  v: Visibility,
  page: { limit: number; before?: string },
): Promise<R[]> {
  const params: unknown[] = [v.agentId, v.companyIds, page.limit];
  let cursor = '';
  if (page.before) {
    params.push(page.before);
    cursor = `and ${t.x}.id < $4::int`;
  }
  return database.query<R>(
    `select ${t.cols} from ${t.table} ${t.x}
      where ${managedBySql(t.x, '$1', '$2')} ${cursor}
      order by ${t.x}.id desc limit $3`,
    params,
  );
}

/** The row `id` of `t` and whether `v` manages it; undefined when there is none. */
export async function managedById<R>(
  database: Database,
  t: ManagedTable,
  id: number,
  v: Visibility,
): Promise<(R & { visible: boolean }) | undefined> {
  const rows = await database.query<R & { visible: boolean }>(
    `select ${t.cols}, ${managedBySql(t.x, '$2', '$3')} as visible from ${t.table} ${t.x} where ${t.x}.id = $1`,
    [id, v.agentId, v.companyIds],
  );
  return rows[0];
}
