import { severityOf } from '@forecourt/contract/events';
import type { Database } from '../db/client.ts';
import type { terminals } from '../db/schema/org.ts';
import { queueAlertMailsSql } from './alert-sql.ts';
import type { ChangeInput } from './change-repository.ts';
import type { Row } from './rows.ts';
import { unitOfWork } from './unit-of-work.ts';

/** A terminal and where it sits. */
type TerminalPlace = Row<typeof terminals, 'id' | 'site_id' | 'company_id' | 'agent_id'>;

/**
 * The connectivity alert (EVENT_CATALOGUE in packages/contract/src/events.ts): raised when a terminal goes
 * silent, cleared when it reports again (type 4, 'Terminal online', is history from before alerts cleared).
 */
export const EVENT_TERMINAL_OFFLINE = 3;

/**
 * Terminal heartbeats and on/off transitions. Every transition is a conditional UPDATE, so concurrent callers
 * (two requests of one terminal, two nodes) record it once, with its connectivity_events row and alert in the
 * same statement or transaction, and with the changes of the live feed ('connectivity', and 'alert' when an offline
 * alert was raised or cleared).
 */
export function createConnectivityRepository(database: Database) {
  return {
    /**
     * Marks a terminal 'on' if it was not; true when this call made the change (and wrote the connectivity event
     * and cleared the terminal's active offline alerts).
     */
    async markOnline(terminalId: number, at: Date): Promise<boolean> {
      return unitOfWork(database, async (q) => {
        const rows = await q<TerminalPlace & { cleared: number | string }>(
          `with back as (
             update terminals set connectivity = 'on', connectivity_changed_at = $2,
                                  last_seen_at = greatest(coalesce(last_seen_at, $2), $2)
              where id = $1 and connectivity <> 'on'
              returning id, site_id, company_id, agent_id, terminal_no
           ), ev as (
             insert into connectivity_events (terminal_id, site_id, company_id, agent_id, status, at)
             select id, site_id, company_id, agent_id, 'on', $2 from back
           ), cleared as (
             update alerts a set state = 'cleared', cleared_at = $2
               from back b
              where a.terminal_id = b.id and a.event_type = ${EVENT_TERMINAL_OFFLINE} and a.state = 'active'
             returning a.id
           )
           select id, site_id, company_id, agent_id, (select count(*) from cleared) as cleared from back`,
          [terminalId, at],
        );
        const r = rows[0];
        if (!r) return false;
        const place = { agentId: r.agent_id, companyId: r.company_id, siteId: r.site_id, terminalId: r.id };
        const changes: ChangeInput[] = [{ kind: 'connectivity', ...place }];
        if (Number(r.cleared) > 0) changes.push({ kind: 'alert', ...place });
        await q.changed(changes);
        return true;
      });
    },

    /** Writes coalesced heartbeats; answers each terminal's current connectivity. */
    async flushSeen(ids: number[], ats: Date[]): Promise<Array<{ id: number; connectivity: string }>> {
      if (!ids.length) return [];
      return database.query<Row<typeof terminals, 'id' | 'connectivity'>>(
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
      return unitOfWork(database, async (q) => {
        const rows = await q<TerminalPlace>(
          `with gone as (
             update terminals set connectivity = 'off', connectivity_changed_at = $2
              where connectivity <> 'off' and coalesce(last_seen_at, connectivity_changed_at) < $1
                and decommissioned_at is null
              returning id, site_id, company_id, agent_id, terminal_no, last_seen_at
           ), ev as (
             insert into connectivity_events (terminal_id, site_id, company_id, agent_id, status, at)
             select id, site_id, company_id, agent_id, 'off', $2 from gone
           ), raised as (
             insert into alerts (terminal_id, site_id, company_id, agent_id, event_type, text, started_at, created_at,
                                 severity)
             select g.id, g.site_id, g.company_id, g.agent_id, ${EVENT_TERMINAL_OFFLINE},
                    'Terminal offline: terminal ' || g.terminal_no || ' at ' || s.title || ' has not reported '
                      || case when g.last_seen_at is null then 'yet'
                              else 'since ' || to_char(g.last_seen_at at time zone 'UTC', 'YYYY-MM-DD HH24:MI') || ' UTC' end,
                    $2, $2, '${severityOf(EVENT_TERMINAL_OFFLINE)}'
               from gone g join sites s on s.id = g.site_id
             returning id, terminal_id, site_id, company_id, agent_id, severity, silenced
           ), mails as (
             ${queueAlertMailsSql('raised')}
           )
           select terminal_id as id, site_id, company_id, agent_id from raised`,
          [cutoff, now],
        );
        await q.changed(
          rows.flatMap((r) => {
            const place = {
              agentId: r.agent_id,
              companyId: r.company_id,
              siteId: r.site_id,
              terminalId: r.id,
            };
            return [
              { kind: 'connectivity', ...place },
              { kind: 'alert', ...place },
            ] satisfies ChangeInput[];
          }),
        );
        return rows.map((r) => r.id);
      });
    },
  };
}
export type ConnectivityRepository = ReturnType<typeof createConnectivityRepository>;
