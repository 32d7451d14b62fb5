import type { TelemetryBucket, TelemetrySignal } from '@forecourt/contract/telemetry-history';
import type { Database } from '../db/client.ts';
import {
  clusterClosedRollupMonths,
  dropExpiredPartitions,
  ensureHistoryPartitions,
  HOUR_OF,
  ROLLUP_GRACE_MS,
  rollUpHours,
  rollUpPending,
} from '../db/telemetry-history.ts';

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;
const STATE_KEY = 'telemetry';

const floorHour = (ms: number) => Math.floor(ms / HOUR_MS) * HOUR_MS;
const iso = (v: Date | string) => (v instanceof Date ? v : new Date(v)).toISOString();

export interface HistoryRequest {
  terminalId: number;
  signal: TelemetrySignal;
  from: Date;
  to: Date;
  points: number;
  /** Raw readings older than this may be gone (RAW_RETENTION_DAYS): such ranges are answered from roll-ups. */
  rawSince: Date;
}

export interface HistoryAnswer {
  step_s: number;
  points: TelemetryBucket[];
}

interface BucketRow {
  at: Date | string;
  avg: number | string;
  min: number | string;
  max: number | string;
  n: number | string;
}

const bucketOf = (r: BucketRow): TelemetryBucket => ({
  at: iso(r.at),
  avg: Number(r.avg),
  min: Number(r.min),
  max: Number(r.max),
  n: Number(r.n),
});

/**
 * Telemetry history: partitions kept ahead and dropped when expired, hourly roll-ups kept up to date, and the
 * chart of one terminal's signal (docs/decisions/0017-telemetry-history.md).
 */
export function createTelemetryHistoryRepository(database: Database) {
  /** PostgreSQL: DDL on the telemetry tables waits at most this long for a lock, then fails and is tried later. */
  const lockTimeout = async (q: (sql: string) => Promise<unknown>) => {
    if (database.kind === 'postgres') await q(`set local lock_timeout = '5s'`);
  };

  const repo = {
    /**
     * Creates the partitions up to a week ahead of `now` and drops those older than the retentions (whole days of
     * raw readings, whole months of roll-ups). Answers what it did.
     */
    async maintainPartitions(now: Date, retention: { rawDays: number; rollupDays: number }) {
      return database.transaction(async (q) => {
        await lockTimeout(q);
        const created = await ensureHistoryPartitions(q, new Date(now.getTime() - DAY_MS), now);
        const dropped = await dropExpiredPartitions(
          q,
          new Date(now.getTime() - retention.rawDays * DAY_MS),
          new Date(now.getTime() - retention.rollupDays * DAY_MS),
        );
        // One closed month per pass: a month's rewrite locks that partition while it runs.
        const clustered = await clusterClosedRollupMonths(q, new Date(now.getTime() - DAY_MS), 1);
        return { created, dropped, clustered: clustered.length };
      });
    },

    /** Every hour before this is rolled up (null: nothing yet). */
    async rolledUntil(): Promise<Date | null> {
      const rows = await database.query<{ rolled_until: Date | string }>(
        'select rolled_until from rollup_state where key = $1',
        [STATE_KEY],
      );
      return rows[0] ? new Date(rows[0].rolled_until) : null;
    },

    /**
     * Rolls up the next closed hours after the high-water mark (at most `maxHours`, one transaction that also moves
     * the mark), then the pending terminal-hours before the mark. Idempotent: an hour rolled up twice holds the
     * same row. Answers the hours done and whether closed hours remain.
     */
    async rollUpStep(
      now: Date,
      opts: { maxHours: number; rawSince: Date },
    ): Promise<{ hours: number; rows: number; more: boolean }> {
      const { maxHours } = opts;
      const closedUntil = floorHour(now.getTime() - ROLLUP_GRACE_MS);
      // Raw readings before the raw retention are (being) dropped: nothing there to roll up.
      const floor = floorHour(opts.rawSince.getTime());
      return database.transaction(async (q) => {
        // The first run starts at the oldest partition (read from the catalogue: min(at) would read every row).
        const [first] = await q<{ start: Date | string | null }>(
          `select coalesce(
                    (select rolled_until from rollup_state where key = $1 for update),
                    least(
                      (select min(to_date(right(c.relname, 8), 'YYYYMMDD'))::timestamp at time zone 'UTC'
                         from pg_inherits i join pg_class c on c.oid = i.inhrelid
                        where i.inhparent = 'telemetry'::regclass and c.relname ~ '^telemetry_p[0-9]{8}$'),
                      (select ${HOUR_OF('min(at)')} from telemetry_default))) as start`,
          [STATE_KEY],
        );
        const start = first?.start ? Math.max(floor, new Date(first.start).getTime()) : closedUntil;
        const until = Math.min(closedUntil, start + maxHours * HOUR_MS);
        let rows = 0;
        if (until > start) {
          // Marks of these hours are covered by this pass; removed first, so a mark written after this
          // statement's snapshot stays for the next pass.
          await q('delete from telemetry_rollup_pending where hour >= $1 and hour < $2', [
            new Date(start),
            new Date(until),
          ]);
          rows += await rollUpHours(q, new Date(start), new Date(until));
        }
        const mark = Math.max(start, until);
        await q(
          `insert into rollup_state (key, rolled_until) values ($1, $2)
           on conflict (key) do update set rolled_until = excluded.rolled_until`,
          [STATE_KEY, new Date(mark)],
        );
        rows += await rollUpPending(q, new Date(mark));
        return { hours: Math.max(0, (until - start) / HOUR_MS), rows, more: until < closedUntil };
      });
    },

    /** The chart of one signal of one terminal (docs/product.md#telemetry-history). */
    async history(r: HistoryRequest): Promise<HistoryAnswer> {
      const col = r.signal;
      const fromMs = r.from.getTime();
      const toMs = r.to.getTime();
      const inRaw = fromMs >= r.rawSince.getTime();
      if (inRaw) {
        const rows = await database.query<{ at: Date | string; v: number }>(
          `select at, ${col} as v from telemetry
            where terminal_id = $1 and at >= $2 and at < $3 and ${col} is not null
            order by at limit $4`,
          [r.terminalId, r.from, r.to, r.points + 1],
        );
        if (rows.length <= r.points) {
          return {
            step_s: 0,
            points: rows.map((x) => ({ at: iso(x.at), avg: x.v, min: x.v, max: x.v, n: 1 })),
          };
        }
      }
      const stepS = Math.ceil((toMs - fromMs) / 1000 / r.points);
      if (inRaw && stepS < 3600) {
        const rows = await database.query<BucketRow>(
          `select date_bin($4::int * interval '1 second', at, $2::timestamptz) as at,
                  avg(${col}) as avg, min(${col}) as min, max(${col}) as max, count(${col}) as n
             from telemetry
            where terminal_id = $1 and at >= $2 and at < $3 and ${col} is not null
            group by 1 order by 1`,
          [r.terminalId, r.from, r.to, stepS],
        );
        return { step_s: stepS, points: rows.map(bucketOf) };
      }
      // Whole hours: roll-ups before the high-water mark, raw readings (grouped the same way) after it.
      const origin = floorHour(fromMs);
      let hours = Math.max(1, Math.ceil((toMs - origin) / HOUR_MS / r.points));
      while (Math.ceil((toMs - origin) / (hours * HOUR_MS)) > r.points) hours += 1;
      const mark = (await repo.rolledUntil())?.getTime() ?? origin;
      const split = new Date(Math.min(Math.max(mark, origin), toMs));
      const rows = await database.query<BucketRow>(
        `with h as (
           select hour, ${col}_n as n, ${col}_sum as s, ${col}_min as lo, ${col}_max as hi
             from telemetry_hourly
            where terminal_id = $1 and hour >= $2 and hour < $3 and ${col}_n > 0
           union all
           select ${HOUR_OF('at')}, count(${col}), sum(${col}), min(${col}), max(${col})
             from telemetry
            where terminal_id = $1 and at >= $3 and at < $4 and ${col} is not null
            group by 1)
         select date_bin($5::int * interval '1 second', hour, $2::timestamptz) as at,
                sum(s) / sum(n) as avg, min(lo) as min, max(hi) as max, sum(n) as n
           from h group by 1 order by 1`,
        [r.terminalId, new Date(origin), split, r.to, hours * 3600],
      );
      return { step_s: hours * 3600, points: rows.map(bucketOf) };
    },
  };
  return repo;
}
export type TelemetryHistoryRepository = ReturnType<typeof createTelemetryHistoryRepository>;
