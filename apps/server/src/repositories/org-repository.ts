import type { Database } from '../db/client.ts';
import { nullableNum, num } from './read-scope.ts';

/** What a path id can name; a command or an alert sits where its terminal does. */
export type EntityKind = 'agent' | 'company' | 'site' | 'terminal' | 'pump' | 'command' | 'alert';

export interface Location {
  agentId: number;
  companyId: number | null;
  siteId: number | null;
  terminalId: number | null;
}

const CACHE_MS = 30_000;

/**
 * Where each kind of entity sits, as (agent, company, site, terminal) ids; a decommissioned one has no row. A command
 * or an alert carries its terminal's place, a pump is where its carrier terminal is.
 */
const PLACE_SQL: Record<EntityKind, string> = {
  agent:
    'select id as agent_id, null as company_id, null as site_id, null as terminal_id from agents where id = $1',
  company: `select agent_id, id as company_id, null as site_id, null as terminal_id
              from companies where id = $1 and decommissioned_at is null`,
  site: `select agent_id, company_id, id as site_id, null as terminal_id
           from sites where id = $1 and decommissioned_at is null`,
  terminal: `select agent_id, company_id, site_id, id as terminal_id
               from terminals where id = $1 and decommissioned_at is null`,
  pump: `select t.agent_id, t.company_id, p.site_id, p.terminal_id
           from pumps p join terminals t on t.id = p.terminal_id where p.id = $1 and p.decommissioned_at is null`,
  command: 'select agent_id, company_id, site_id, terminal_id from commands where id = $1',
  alert: 'select agent_id, company_id, site_id, terminal_id from alerts where id = $1',
};

/**
 * Where an entity sits in the agent → company → site → terminal tree; a decommissioned one is nowhere (404).
 * Cached: the tree rarely changes, and an administrative change (on any node: the feed) drops the cache (`forget`).
 */
export function createOrgRepository(database: Database) {
  const cache = new Map<string, { at: number; value: Location | null }>();

  async function load(kind: EntityKind, id: number): Promise<Location | null> {
    const [row] = await database.query<
      Record<'agent_id' | 'company_id' | 'site_id' | 'terminal_id', unknown>
    >(PLACE_SQL[kind], [id]);
    return row
      ? {
          agentId: num(row.agent_id),
          companyId: nullableNum(row.company_id),
          siteId: nullableNum(row.site_id),
          terminalId: nullableNum(row.terminal_id),
        }
      : null;
  }

  return {
    async locate(kind: EntityKind, id: number): Promise<Location | null> {
      const key = `${kind}:${id}`;
      const hit = cache.get(key);
      if (hit && Date.now() - hit.at < CACHE_MS) return hit.value;
      const value = await load(kind, id);
      if (cache.size > 50_000) cache.clear();
      cache.set(key, { at: Date.now(), value });
      return value;
    },
    /**
     * Drops cached locations: every one, or those of one terminal and what sits on it (its pumps, commands,
     * alerts). An administrative change on any node reaches every node as a change on the feed (plugins/node-sync.ts).
     */
    forget(terminalId?: number) {
      if (terminalId === undefined) {
        cache.clear();
        return;
      }
      for (const [key, hit] of cache) {
        if (key === `terminal:${terminalId}` || hit.value?.terminalId === terminalId) cache.delete(key);
      }
    },
  };
}
export type OrgRepository = ReturnType<typeof createOrgRepository>;
