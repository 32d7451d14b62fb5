import { TELEMETRY_SIGNALS } from '@forecourt/contract/telemetry-history';
import type { QueryFn } from './client.ts';

const DAY_MS = 86_400_000;

/** An hour is rolled up once it has been over this long: readings of it still in flight have landed. */
export const ROLLUP_GRACE_MS = 5 * 60_000;

/** How far ahead of now partitions exist, so a reading of the next days never waits for DDL. */
export const PARTITIONS_AHEAD_DAYS = 7;

type Q = <T = Record<string, unknown>>(sql: string, params?: unknown[]) => Promise<T[]>;

/**
 * Makes sure daily telemetry partitions cover [from, to + PARTITIONS_AHEAD_DAYS) and monthly roll-up partitions
 * cover the same months (the SQL functions of migration 0007; docs/decisions/0017-telemetry-history.md). Answers how
 * many partitions it created.
 */
export async function ensureHistoryPartitions(q: Q | QueryFn, from: Date, to: Date): Promise<number> {
  const until = new Date(to.getTime() + PARTITIONS_AHEAD_DAYS * DAY_MS);
  const [raw] = await q<{ n: number }>(
    `select history_ensure_partitions('telemetry', 'at', 'day', $1, $2) as n`,
    [from, until],
  );
  const [hourly] = await q<{ n: number }>(
    `select history_ensure_partitions('telemetry_hourly', 'hour', 'month', $1, $2) as n`,
    [from, until],
  );
  return Number(raw?.n ?? 0) + Number(hourly?.n ?? 0);
}

/** Drops the raw partitions that end before `rawBefore` and the roll-up partitions that end before `rollupBefore`. */
export async function dropExpiredPartitions(
  q: Q | QueryFn,
  rawBefore: Date,
  rollupBefore: Date,
): Promise<{ raw: number; rollup: number }> {
  const [raw] = await q<{ n: number }>(`select history_drop_partitions('telemetry', 'at', 'day', $1) as n`, [
    rawBefore,
  ]);
  const [rollup] = await q<{ n: number }>(
    `select history_drop_partitions('telemetry_hourly', 'hour', 'month', $1) as n`,
    [rollupBefore],
  );
  return { raw: Number(raw?.n ?? 0), rollup: Number(rollup?.n ?? 0) };
}

/** Hours are UTC hours: date_bin on a fixed origin does not depend on the session's time zone. */
export const HOUR_OF = (col: string) => `date_bin('1 hour', ${col}, timestamptz '2000-01-01 00:00:00+00')`;

const ROLLUP_COLUMNS = TELEMETRY_SIGNALS.flatMap((s) => [`${s}_n`, `${s}_sum`, `${s}_min`, `${s}_max`]);
const aggregates = (x: string) =>
  TELEMETRY_SIGNALS.map((s) => `count(${x}.${s})::int, sum(${x}.${s}), min(${x}.${s}), max(${x}.${s})`).join(
    ',\n              ',
  );
const UPSERT = `on conflict (terminal_id, hour) do update set ${ROLLUP_COLUMNS.map((c) => `${c} = excluded.${c}`).join(', ')}`;

/**
 * Rolls up every reading dated in [from, to) (whole hours) into telemetry_hourly, replacing what those hours held:
 * running it twice gives the same rows. Answers how many terminal-hours it wrote.
 */
export async function rollUpHours(q: Q | QueryFn, from: Date, to: Date): Promise<number> {
  const rows = await q<{ n: number | string }>(
    `with up as (
       insert into telemetry_hourly (terminal_id, hour, ${ROLLUP_COLUMNS.join(', ')})
       select x.terminal_id, ${HOUR_OF('x.at')},
              ${aggregates('x')}
         from telemetry x
        where x.at >= $1 and x.at < $2
        group by 1, 2
       ${UPSERT}
       returning 1)
     select count(*) as n from up`,
    [from, to],
  );
  return Number(rows[0]?.n ?? 0);
}

/**
 * Rolls up again the terminal-hours marked pending before `before` (readings that arrived after their hour was
 * rolled up), removing the marks in the same statement. Answers how many terminal-hours it wrote.
 */
export async function rollUpPending(q: Q | QueryFn, before: Date): Promise<number> {
  const rows = await q<{ n: number | string }>(
    `with p as (
       delete from telemetry_rollup_pending where hour < $1 returning terminal_id, hour),
     up as (
       insert into telemetry_hourly (terminal_id, hour, ${ROLLUP_COLUMNS.join(', ')})
       select x.terminal_id, p.hour,
              ${aggregates('x')}
         from p join telemetry x
           on x.terminal_id = p.terminal_id and x.at >= p.hour and x.at < p.hour + interval '1 hour'
        group by x.terminal_id, p.hour
       ${UPSERT}
       returning 1)
     select count(*) as n from up`,
    [before],
  );
  return Number(rows[0]?.n ?? 0);
}

/**
 * Rewrites up to `limit` closed roll-up months (their range ended before `before`) in key order, (terminal, hour):
 * roll-ups arrive an hour at a time for every terminal, so a terminal's hours of a month lie on as many pages as
 * it has hours; a long chart reads ~20 pages a month once they are clustered. Each month is clustered once
 * (pg_index.indisclustered). Answers the partitions it rewrote.
 */
export async function clusterClosedRollupMonths(
  q: Q | QueryFn,
  before: Date,
  limit: number,
): Promise<string[]> {
  const parts = await q<{ part: string; idx: string }>(
    `select c.relname as part, x.relname as idx
       from pg_inherits h
       join pg_class c on c.oid = h.inhrelid
       join pg_index i on i.indrelid = c.oid and i.indisprimary
       join pg_class x on x.oid = i.indexrelid
      where h.inhparent = 'telemetry_hourly'::regclass and c.relname ~ '^telemetry_hourly_p[0-9]{8}$'
        and not i.indisclustered
        and ((to_date(right(c.relname, 8), 'YYYYMMDD')::timestamp + interval '1 month') at time zone 'UTC') <= $1
      order by c.relname desc
      limit $2`,
    [before, limit],
  );
  for (const p of parts) await q(`cluster "${p.part}" using "${p.idx}"`);
  return parts.map((p) => p.part);
}
