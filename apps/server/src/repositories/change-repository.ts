import { LIVE_CHANGE_KINDS, type LiveChangeKind } from '@forecourt/contract/live';
import type { Database } from '../db/client.ts';
import type { changes } from '../db/schema/changes.ts';
import type { Row } from './rows.ts';

/** What a live stream carries (docs/product.md "Live updates"): the contract's list. */
export const PUBLIC_CHANGE_KINDS = LIVE_CHANGE_KINDS;
export type PublicChangeKind = LiveChangeKind;

/**
 * Changes only the nodes act on, never sent to a stream: `session` (a user's tokens or rights changed: logout,
 * disabled, password, companies/sites; `userId` set), `device` (a terminal's device token rotated or the
 * terminal decommissioned; `terminalId` set) and `command` (a rollout's install command for `terminalId` was queued,
 * withdrawn or changed state: wakes its long-polls, and the leader's rollout tick).
 */
export type InternalChangeKind = 'session' | 'device' | 'command';
export type ChangeKind = PublicChangeKind | InternalChangeKind;

export function isPublicChange(kind: string): kind is PublicChangeKind {
  return (PUBLIC_CHANGE_KINDS as readonly string[]).includes(kind);
}

/** A change to record: its kind and every id of where it happened that is known. */
export interface ChangeInput {
  kind: ChangeKind;
  agentId?: number | null;
  companyId?: number | null;
  siteId?: number | null;
  terminalId?: number | null;
  pumpId?: number | null;
  userId?: number | null;
}

/** A change as the feed reads it back. */
export interface Change {
  id: number;
  kind: ChangeKind;
  agentId: number | null;
  companyId: number | null;
  siteId: number | null;
  terminalId: number | null;
  pumpId: number | null;
  userId: number | null;
  at: Date;
}

/** The channel NOTIFY wakes the nodes on. */
export const CHANGE_CHANNEL = 'forecourt_changes';

type ChangeRow = Row<
  typeof changes,
  'id' | 'kind' | 'agent_id' | 'company_id' | 'site_id' | 'terminal_id' | 'pump_id' | 'user_id' | 'at'
>;

function toChange(r: ChangeRow): Change {
  return {
    id: Number(r.id),
    kind: r.kind as ChangeKind,
    agentId: r.agent_id,
    companyId: r.company_id,
    siteId: r.site_id,
    terminalId: r.terminal_id,
    pumpId: r.pump_id,
    userId: r.user_id,
    at: new Date(r.at),
  };
}

/** What one read of the feed saw: the rows after a cursor and the snapshot's transaction bounds. */
export interface FeedRead {
  rows: Change[];
  /**
   * Oldest transaction still running on the whole server when the read was made (pg_snapshot_xmin): once it has
   * passed a gap's bound, the gap is settled; until then `xmin()` tells this database's own.
   */
  xmin: bigint;
  /** First transaction id not yet assigned when the read was made (pg_snapshot_xmax). */
  xmax: bigint;
}

/**
 * The oldest transaction of THIS database still running (an expression of type xid8 or numeric): only its
 * transactions can commit a change id. PostgreSQL's own snapshot xmin spans every database of the server, so a
 * long write elsewhere (a `create database` copying a large template, another application's batch job) would
 * hold the feed's gaps and its first cursor for as long as it runs. The running transactions of the snapshot are
 * matched to this database's sessions by their 32-bit ids; when some session of this database is hidden from
 * this role (no `pg_read_all_stats`), the server-wide xmin is kept, which is never wrong, only slower. PGlite
 * holds one database: its snapshot is already that.
 */
function xminOf(database: Database): string {
  if (database.kind === 'pglite') return 'pg_snapshot_xmin(pg_current_snapshot())';
  return `(with snap as (select pg_current_snapshot() as s),
                mine as (select a.backend_xid::text::numeric as xid, a.query = '<insufficient privilege>' as hidden
                           from pg_stat_activity a where a.datname = current_database())
           select case when exists (select 1 from mine where hidden)
                       then pg_snapshot_xmin(snap.s)::text::numeric
                       else coalesce(
                         (select min(x::text::numeric) from pg_snapshot_xip(snap.s) x
                           where x::text::numeric % 4294967296 in (select xid from mine where xid is not null)),
                         pg_snapshot_xmax(snap.s)::text::numeric)
                  end
             from snap)`;
}

export function createChangeRepository(database: Database) {
  return {
    /** Rows with an id above `after` (at most `limit`), in id order, with the bounds of the snapshot that saw them. */
    async readAfter(after: number, limit: number): Promise<FeedRead> {
      const rows = await database.query<ChangeRow & { xmin: string; xmax: string }>(
        `select s.xmin::text as xmin, s.xmax::text as xmax, c.*
           from (select pg_snapshot_xmin(pg_current_snapshot()) as xmin,
                        pg_snapshot_xmax(pg_current_snapshot()) as xmax) s
           left join lateral (
             select id, kind, agent_id, company_id, site_id, terminal_id, pump_id, user_id, at
               from changes where id > $1 order by id limit $2
           ) c on true`,
        [after, limit],
      );
      const first = rows[0];
      return {
        xmin: BigInt(first?.xmin ?? 0),
        xmax: BigInt(first?.xmax ?? 0),
        rows: rows.filter((r) => r.id != null).map(toChange),
      };
    },

    /** The newest id and, from the same snapshot, its xmax (the feed's first cursor). */
    async head(): Promise<{ max: number; xmax: bigint }> {
      const rows = await database.query<{ max: string | number | null; xmax: string }>(
        'select (select max(id) from changes) as max, pg_snapshot_xmax(pg_current_snapshot())::text as xmax',
      );
      return { max: Number(rows[0]?.max ?? 0), xmax: BigInt(rows[0]?.xmax ?? 0) };
    },

    /** The oldest transaction of this database still running, as of a new snapshot (`xminOf`). */
    async xmin(): Promise<bigint> {
      const rows = await database.query<{ xmin: string }>(`select ${xminOf(database)}::text as xmin`);
      return BigInt(rows[0]?.xmin ?? 0);
    },

    /** Changes with an id in (after, upto], in order (a resuming stream's backlog). */
    async between(after: number, upto: number, limit = 100_000): Promise<Change[]> {
      const rows = await database.query<ChangeRow>(
        `select id, kind, agent_id, company_id, site_id, terminal_id, pump_id, user_id, at
           from changes where id > $1 and id <= $2 order by id limit $3`,
        [after, upto, limit],
      );
      return rows.map(toChange);
    },

    /** Every change up to this id has been pruned. */
    async prunedThrough(): Promise<number> {
      const rows = await database.query<{ pruned_through: string | number }>(
        'select pruned_through from change_feed_state where id = 1',
      );
      return Number(rows[0]?.pruned_through ?? 0);
    },

    /**
     * Deletes changes older than `keepMs` and below `below` (a position every node has passed), and moves the
     * pruned mark. Idempotent: any node may run it.
     */
    async prune(keepMs: number, below: number): Promise<number> {
      return database.transaction(async (q) => {
        const rows = await q<{ n: string | number; max: string | number | null }>(
          `with gone as (
             delete from changes where at < now() - make_interval(secs => $1::float8 / 1000) and id < $2
             returning id
           )
           select count(*) as n, max(id) as max from gone`,
          [keepMs, below],
        );
        const max = rows[0]?.max;
        if (max != null) {
          await q('update change_feed_state set pruned_through = greatest(pruned_through, $1) where id = 1', [
            Number(max),
          ]);
        }
        return Number(rows[0]?.n ?? 0);
      });
    },
  };
}
export type ChangeRepository = ReturnType<typeof createChangeRepository>;
