import type { Database } from '../db/client.ts';

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
 * Where an entity sits in the agent → company → site → terminal tree; a decommissioned one is nowhere (404).
 * Cached: the tree rarely changes, and an administrative change (on any node: the feed) drops the cache (`forget`).
 */
export function createOrgRepository(database: Database) {
  const cache = new Map<string, { at: number; value: Location | null }>();

  async function load(kind: EntityKind, id: number): Promise<Location | null> {
    const q = database.query.bind(database);
    switch (kind) {
      case 'agent': {
        const rows = await q<{ id: number }>('select id from agents where id = $1', [id]);
        return rows[0] ? { agentId: id, companyId: null, siteId: null, terminalId: null } : null;
      }
      case 'company': {
        const rows = await q<{ agent_id: number }>(
          'select agent_id from companies where id = $1 and decommissioned_at is null',
          [id],
        );
        return rows[0] ? { agentId: rows[0].agent_id, companyId: id, siteId: null, terminalId: null } : null;
      }
      case 'site': {
        const rows = await q<{ agent_id: number; company_id: number }>(
          'select agent_id, company_id from sites where id = $1 and decommissioned_at is null',
          [id],
        );
        return rows[0]
          ? { agentId: rows[0].agent_id, companyId: rows[0].company_id, siteId: id, terminalId: null }
          : null;
      }
      case 'terminal': {
        const rows = await q<{ agent_id: number; company_id: number; site_id: number }>(
          'select agent_id, company_id, site_id from terminals where id = $1 and decommissioned_at is null',
          [id],
        );
        return rows[0]
          ? {
              agentId: rows[0].agent_id,
              companyId: rows[0].company_id,
              siteId: rows[0].site_id,
              terminalId: id,
            }
          : null;
      }
      case 'pump': {
        const rows = await q<{ agent_id: number; company_id: number; site_id: number; terminal_id: number }>(
          `select t.agent_id, t.company_id, p.site_id, p.terminal_id
             from pumps p join terminals t on t.id = p.terminal_id where p.id = $1 and p.decommissioned_at is null`,
          [id],
        );
        return rows[0]
          ? {
              agentId: rows[0].agent_id,
              companyId: rows[0].company_id,
              siteId: rows[0].site_id,
              terminalId: rows[0].terminal_id,
            }
          : null;
      }
      case 'command':
      case 'alert': {
        const rows = await q<{ agent_id: number; company_id: number; site_id: number; terminal_id: number }>(
          `select agent_id, company_id, site_id, terminal_id from ${kind === 'alert' ? 'alerts' : 'commands'} where id = $1`,
          [id],
        );
        return rows[0]
          ? {
              agentId: rows[0].agent_id,
              companyId: rows[0].company_id,
              siteId: rows[0].site_id,
              terminalId: rows[0].terminal_id,
            }
          : null;
      }
    }
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
