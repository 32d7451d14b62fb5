import type { Database } from '../db/client.ts';

/** Event types of connectivity alerts (EVENT_CATALOGUE in packages/contract/src/events.ts). */
export const EVENT_TERMINAL_OFFLINE = 3;
export const EVENT_TERMINAL_ONLINE = 4;

/**
 * Terminal heartbeats and on/off transitions. Every transition is a conditional UPDATE, so concurrent callers
 * (two requests of one terminal, two nodes) record it once, with its connectivity_events row and alert in the
 * same statement or transaction.
 */
export function createConnectivityRepository(database: Database) {
  return {
    /** Marks a terminal 'on' if it was not; true when this call made the change (and wrote event + alert). */
    async markOnline(terminalId: number, at: Date): Promise<boolean> {
      const rows = await database.query<{ id: number }>(
        `with back as (
           update terminals set connectivity = 'on', connectivity_changed_at = $2,
                                last_seen_at = greatest(coalesce(last_seen_at, $2), $2)
            where id = $1 and connectivity <> 'on'
            returning id, site_id, company_id, agent_id, terminal_no
         ), ev as (
           insert into connectivity_events (terminal_id, site_id, company_id, agent_id, status, at)
           select id, site_id, company_id, agent_id, 'on', $2 from back
         )
         insert into alerts (terminal_id, site_id, company_id, agent_id, event_type, text, started_at, created_at)
         select b.id, b.site_id, b.company_id, b.agent_id, ${EVENT_TERMINAL_ONLINE},
                'Terminal online: terminal ' || b.terminal_no || ' at ' || s.title || ' is reporting again', $2, $2
           from back b join sites s on s.id = b.site_id
         returning terminal_id as id`,
        [terminalId, at],
      );
      return rows.length > 0;
    },

    /** Writes coalesced heartbeats; answers each terminal's current connectivity. */
    async flushSeen(ids: number[], ats: Date[]): Promise<Array<{ id: number; connectivity: string }>> {
      if (!ids.length) return [];
      return database.query<{ id: number; connectivity: string }>(
        `update terminals t set last_seen_at = greatest(coalesce(t.last_seen_at, v.at), v.at)
           from unnest($1::int[], $2::timestamptz[]) as v(id, at)
          where t.id = v.id
          returning t.id, t.connectivity`,
        [ids, ats],
      );
    },

    /**
     * Marks 'off' every terminal not 'off' whose last heartbeat (or, never seen, its last change) is older than
     * `cutoff`, with a connectivity_events row and an alert each. Answers the ids it changed.
     */
    async markSilentOffline(cutoff: Date, now: Date): Promise<number[]> {
      const rows = await database.query<{ id: number }>(
        `with gone as (
           update terminals set connectivity = 'off', connectivity_changed_at = $2
            where connectivity <> 'off' and coalesce(last_seen_at, connectivity_changed_at) < $1
            returning id, site_id, company_id, agent_id, terminal_no, last_seen_at
         ), ev as (
           insert into connectivity_events (terminal_id, site_id, company_id, agent_id, status, at)
           select id, site_id, company_id, agent_id, 'off', $2 from gone
         )
         insert into alerts (terminal_id, site_id, company_id, agent_id, event_type, text, started_at, created_at)
         select g.id, g.site_id, g.company_id, g.agent_id, ${EVENT_TERMINAL_OFFLINE},
                'Terminal offline: terminal ' || g.terminal_no || ' at ' || s.title || ' has not reported '
                  || case when g.last_seen_at is null then 'yet'
                          else 'since ' || to_char(g.last_seen_at at time zone 'UTC', 'YYYY-MM-DD HH24:MI') || ' UTC' end,
                $2, $2
           from gone g join sites s on s.id = g.site_id
         returning terminal_id as id`,
        [cutoff, now],
      );
      return rows.map((r) => r.id);
    },
  };
}
export type ConnectivityRepository = ReturnType<typeof createConnectivityRepository>;
