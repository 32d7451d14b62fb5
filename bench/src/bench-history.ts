import type pg from 'pg';
import { onLargeDataset } from './lib/large-run.ts';
import { authHeader, login } from './lib/load.ts';
import { fmt, isMain, summary, table, uptimeLoad, waitForQuiet, writeResult } from './lib/report.ts';

const DAY_MS = 86_400_000;
const P95_GOAL_MS = 100;
const INGEST_GOAL = 0.9;

/** The statement the device API runs for a batch of readings (repositories/device-repository.ts). */
const insertInto = (table: string) =>
  `insert into ${table} (terminal_id, site_id, at, battery_life, flash_left, temperature_main_board,
                         temperature_inside_cabinet, humidity_inside_cabinet, lat, lng)
   select $1::int, $2::int, u.*
     from unnest($3::timestamptz[], $4::float8[], $5::float8[], $6::float8[], $7::float8[], $8::float8[],
                 $9::float8[], $10::float8[]) as u`;

/** Batches of `batch` readings for random terminals, `concurrency` at a time, for `seconds`: readings per second. */
async function ingest(
  pool: pg.Pool,
  table: string,
  terminals: { id: number; site_id: number }[],
  opts: { batch: number; concurrency: number; seconds: number },
): Promise<number> {
  const sql = insertInto(table);
  const deadline = performance.now() + opts.seconds * 1000;
  const t0 = performance.now();
  let rows = 0;
  let i = 0;
  const worker = async () => {
    while (performance.now() < deadline) {
      const t = terminals[(i++ * 7919) % terminals.length]!;
      const now = Date.now();
      const ats = Array.from({ length: opts.batch }, (_, k) => new Date(now - (opts.batch - k) * 1000));
      const v = (base: number) => Array.from({ length: opts.batch }, (_, k) => base + ((i + k) % 10));
      await pool.query(sql, [t.id, t.site_id, ats, v(50), v(60), v(40), v(20), v(45), v(51), v(-1)]);
      rows += opts.batch;
    }
  };
  await Promise.all(Array.from({ length: opts.concurrency }, worker));
  return rows / ((performance.now() - t0) / 1000);
}

/**
 * bench:history — on the history data set (SEED=large with LARGE_HISTORY=1: 90 days of telemetry at one reading
 * per 5 minutes and two years of hourly roll-ups), through the real server: p50/p95 of a 24 h, 90-day and 2-year
 * chart of one terminal (`GET /api/terminal/{id}/telemetry/`) next to a primary-key read (`GET /api/command/{id}/`)
 * in the same run; ingest into the partitioned table next to an unpartitioned copy; bytes per stored reading and
 * per roll-up row. PostgreSQL only. Pin it apart from the server: `taskset -c 0 npm run bench:history` (the server
 * runs on CPU 1, `--server-cpus`).
 */
export async function benchHistory(argv = process.argv.slice(2)) {
  return onLargeDataset(
    'history',
    argv,
    { history: true, poolMax: 8 },
    async ({ args, scale, pool, server }) => {
      const requests = Number(args.flags.get('requests') ?? 200);
      const seconds = Number(args.flags.get('seconds') ?? args.duration);
      const token = await login(server.url);
      const terminals = (
        await pool.query<{ id: number; site_id: number }>(
          `select t.id, t.site_id from terminals t
          where t.decommissioned_at is null and exists (select 1 from telemetry_hourly h where h.terminal_id = t.id)
          order by t.id`,
        )
      ).rows;
      const commands = (await pool.query<{ id: number }>('select id from commands order by id')).rows;
      const counts = (
        await pool.query<{
          raw: string;
          hourly: string;
          raw_bytes: string;
          hourly_bytes: string;
          parts: number;
        }>(
          `select (select count(*) from telemetry)::text as raw, (select count(*) from telemetry_hourly)::text as hourly,
                (select sum(pg_total_relation_size(inhrelid)) from pg_inherits
                  where inhparent = 'telemetry'::regclass)::text as raw_bytes,
                (select sum(pg_total_relation_size(inhrelid)) from pg_inherits
                  where inhparent = 'telemetry_hourly'::regclass)::text as hourly_bytes,
                (select count(*)::int from pg_inherits where inhparent = 'telemetry'::regclass) as parts`,
        )
      ).rows[0]!;
      console.log(
        `${terminals.length} terminals with history; ${Number(counts.raw).toLocaleString('en')} readings in ${counts.parts} partitions, ${Number(counts.hourly).toLocaleString('en')} roll-up rows`,
      );
      await waitForQuiet(args.wait);
      const loadBefore = uptimeLoad();

      const get = async (path: string) => {
        const t0 = performance.now();
        const res = await fetch(`${server.url}${path}`, { headers: authHeader(token) });
        const body = await res.text();
        const ms = performance.now() - t0;
        if (res.status !== 200) throw new Error(`${path}: ${res.status} ${body.slice(0, 200)}`);
        return { ms, body };
      };
      const now = Date.now();
      const ranges = [
        { name: '24 h chart', ms: DAY_MS },
        { name: '90-day chart', ms: 90 * DAY_MS },
        { name: '2-year chart', ms: 730 * DAY_MS },
      ];
      const rows: Array<Record<string, string | number>> = [];
      const figures: Record<string, unknown> = {};
      const measure = async (name: string, paths: string[], note: (body: string) => string) => {
        for (const p of paths.slice(0, 10)) await get(p); // warm-up (different keys from the measured ones)
        const ms: number[] = [];
        let last = '';
        for (const p of paths.slice(10)) {
          const r = await get(p);
          ms.push(r.ms);
          last = r.body;
        }
        const s = summary(ms);
        figures[name] = { ...s, answer: note(last) };
        rows.push({ request: name, n: s.n, 'p50 ms': s.p50, 'p95 ms': s.p95, answer: note(last) });
      };
      // Each request asks for another terminal (or command): no shared snapshot serves a repeat.
      const pick = <T>(list: T[], k: number) => list[(k * 7919) % list.length]!;
      for (const r of ranges) {
        const q = `signal=battery_life&from=${new Date(now - r.ms).toISOString()}&to=${new Date(now).toISOString()}`;
        await measure(
          r.name,
          Array.from(
            { length: requests + 10 },
            (_, k) => `/api/terminal/${pick(terminals, k).id}/telemetry/?${q}`,
          ),
          (body) => {
            const b = JSON.parse(body) as { step_s: number; points: unknown[] };
            return `${b.points.length} points, step ${b.step_s} s`;
          },
        );
      }
      await measure(
        'primary-key read',
        Array.from({ length: requests + 10 }, (_, k) => `/api/command/${pick(commands, k).id}/`),
        () => 'GET /api/command/{id}/',
      );

      // Ingest: the same batches into the partitioned table and into an unpartitioned copy holding the last day.
      await pool.query('drop table if exists telemetry_flat');
      await pool.query('create table telemetry_flat (like telemetry including defaults including indexes)');
      await pool.query(
        `insert into telemetry_flat select * from telemetry where at >= now() - interval '1 day'`,
      );
      await pool.query('analyze telemetry_flat');
      const rates: Record<string, number[]> = { telemetry: [], telemetry_flat: [] };
      for (let round = 0; round < 3; round++) {
        for (const table of ['telemetry', 'telemetry_flat'] as const) {
          rates[table]!.push(
            await ingest(pool, table, terminals, {
              batch: 10,
              concurrency: 4,
              seconds: Math.max(3, seconds / 2),
            }),
          );
        }
      }
      const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
      const partitioned = median(rates.telemetry!);
      const flat = median(rates.telemetry_flat!);
      await pool.query('drop table telemetry_flat');
      const loadAfter = uptimeLoad();

      const perReading = Number(counts.raw_bytes) / Number(counts.raw);
      const perRollup = Number(counts.hourly_bytes) / Number(counts.hourly);
      console.log('');
      table(rows);
      console.log(
        `\ningest (batches of 10, 4 connections, median of 3 rounds): partitioned ${fmt(partitioned)} readings/s, unpartitioned copy ${fmt(flat)} readings/s, ratio ${fmt(partitioned / flat, 2)} (goal ≥ ${INGEST_GOAL})`,
      );
      console.log(
        `storage: ${fmt(perReading, 1)} bytes per stored reading (${counts.parts} daily partitions with their indexes), ${fmt(perRollup, 1)} bytes per roll-up row`,
      );
      console.log(`load average (uptime) before: ${loadBefore}; after: ${loadAfter}`);
      const charts = rows.filter((r) => String(r.request).includes('chart'));
      const verdict =
        charts.every((r) => Number(r['p95 ms']) <= P95_GOAL_MS) && partitioned / flat >= INGEST_GOAL
          ? 'met'
          : 'not met';
      console.log(`goals (charts p95 ≤ ${P95_GOAL_MS} ms, ingest ≥ ${INGEST_GOAL}×): ${verdict}`);
      const result = {
        scale,
        terminals: terminals.length,
        readings: Number(counts.raw),
        rollupRows: Number(counts.hourly),
        partitions: counts.parts,
        requests: figures,
        ingest: { partitioned, unpartitioned: flat, ratio: partitioned / flat, rounds: rates },
        bytesPerReading: perReading,
        bytesPerRollupRow: perRollup,
        load: { before: loadBefore, after: loadAfter },
        verdict,
      };
      console.log(`\nwritten to ${writeResult('history-postgres', result)}`);
      return result;
    },
  );
}

if (isMain(import.meta.url)) {
  benchHistory().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
