import { execSync } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import { largeDataset } from './lib/dataset.ts';
import { fmt, parseArgs, runIfMain, table, waitForQuiet, writeResult } from './lib/report.ts';
import { repoRoot } from './lib/server.ts';

/** What the bench uses of the server's rule repository (loaded at run time: the bench compiles apart from it). */
interface RuleRepo {
  /** Writes a rule in a unit of work of its own (the repository's `insert` inside `unitOfWork`). */
  create(actor: { userId: number; username: string }, fields: Record<string, unknown>): Promise<unknown>;
  /** The sweep as services/alert-rules.ts runs it: `sweepNoSales` in a unit of work recording its changes. */
  sweepNoSales(now: Date): Promise<number>;
}

async function serverRuleRepository(pool: pg.Pool): Promise<RuleRepo> {
  const load = (file: string) => import(pathToFileURL(path.join(repoRoot, 'apps/server/src', file)).href);
  const { fromPool } = await load('db/client.ts');
  const { createRuleRepository } = await load('repositories/rule-repository.ts');
  const { unitOfWork } = await load('repositories/unit-of-work.ts');
  const database = fromPool(pool);
  const repo = createRuleRepository(database);
  return {
    create: (actor, fields) => unitOfWork(database, (tx: unknown) => repo.insert(tx, actor, fields)),
    sweepNoSales: (now) =>
      unitOfWork(database, async (tx: { changed(c: unknown): Promise<void> }) => {
        const swept = await repo.sweepNoSales(tx, now);
        await tx.changed(swept.changes);
        return swept.fired;
      }),
  };
}

const HOUR_MS = 3_600_000;

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;

function summary(ms: number[]) {
  const sorted = [...ms].sort((a, b) => a - b);
  return { p50: percentile(sorted, 50), p95: percentile(sorted, 95), n: sorted.length };
}

const load = () =>
  execSync('uptime')
    .toString()
    .trim()
    .replace(/^.*load average: /, '');

/**
 * bench:no-sales — the leader's `no_sales` sweep (`sweepNoSales` of the server's rule repository, the code the sweep
 * runs) on the scale data set (SEED=large, PostgreSQL, a fresh copy of the template database), with `--rules N`
 * (default 5) enabled `no_sales` rules aimed at the demo agent's whole fleet:
 * - *hour turned, every terminal quiet*: each run at a new hour after the data set's last sale, so every terminal is a
 *   candidate and its baseline is refreshed before the due rules are joined — the sweep's cost once an hour at night;
 * - *same hour, every terminal quiet*: runs repeated within such an hour (nothing to refresh) — every 10 s at night;
 * - *same hour, 30 s after the last sale*: most terminals sold within `for_s` — every 10 s by day;
 * next to a plain `count(*)` of the terminals with sales the same rules reach, in the same run. `--runs` (default 10),
 * `--scale` (default 1: 20,000 terminals). Pin it: `taskset -c 0 npm run bench:no-sales`.
 */
export async function benchNoSales(argv = process.argv.slice(2)) {
  const args = parseArgs(argv.includes('--db') ? argv : [...argv, '--db', 'postgres']);
  if (args.db !== 'postgres') {
    console.log('bench:no-sales runs on PostgreSQL only (--db postgres)');
    return null;
  }
  const scale = Number(args.flags.get('scale') ?? 1);
  const runs = Number(args.flags.get('runs') ?? 10);
  const nRules = Number(args.flags.get('rules') ?? 5);
  console.log(`\n== bench:no-sales on postgres, LARGE_SCALE=${scale}, ${nRules} no_sales rules ==`);
  const target = await largeDataset('postgres', scale);
  const pool = new pg.Pool({ connectionString: target.databaseUrl, max: 4 });
  try {
    const repo = await serverRuleRepository(pool);
    const [agent] = (
      await pool.query<{ agent_id: number; n: string }>(
        'select agent_id, count(*)::text as n from terminals group by agent_id order by count(*) desc limit 1',
      )
    ).rows;
    const sizes = (
      await pool.query<{ terminals: string; selling: string; hours: string }>(
        `select (select count(*) from terminals where agent_id = $1 and decommissioned_at is null)::text as terminals,
                (select count(*) from sales_terminals)::text as selling,
                (select count(*) from sales_hours)::text as hours`,
        [agent!.agent_id],
      )
    ).rows[0]!;
    console.log(
      `agent ${agent!.agent_id}: ${fmt(Number(sizes.terminals))} live terminals, ${fmt(Number(sizes.selling))} with sales, ${fmt(Number(sizes.hours))} sales hours rolled up`,
    );
    const [author] = (
      await pool.query<{ id: number; username: string }>(
        `select id, username from users where username = 'agent'`,
      )
    ).rows;
    for (let i = 0; i < nRules; i++)
      await repo.create(
        { userId: author!.id, username: author!.username },
        {
          name: `No sales ${i + 1}`,
          scopeKind: 'agent',
          scopeId: agent!.agent_id,
          tags: [],
          place: { agentId: agent!.agent_id, companyId: null, siteId: null },
          signal: 'no_sales',
          op: '>=',
          // Baselines of the scale set are low (its sales cover the last 48 hours): most rules never fire.
          threshold: 5 + i,
          forS: 1800 + 600 * i,
          clearThreshold: null,
          severity: 'minor',
          enabled: true,
        },
      );
    await waitForQuiet(args.wait);
    const loadBefore = load();

    // The sweeps run after the data set's last sale (the template's clock, not today's): at hours where every
    // terminal has been quiet for at least an hour (night: each one a candidate), and right after that last sale
    // (day: most terminals sold within for_s).
    const lastSale = (
      await pool.query<{ at: Date }>('select max(last_at) as at from sales_terminals')
    ).rows[0]!.at.getTime();
    const base = Math.floor(lastSale / HOUR_MS) * HOUR_MS;
    const figures: Record<string, unknown> = {};
    const rows: Array<Record<string, string | number>> = [];
    const time = async (name: string, run: (k: number) => Promise<string>) => {
      await run(-1); // warm-up
      const ms: number[] = [];
      let note = '';
      for (let k = 0; k < runs; k++) {
        const t0 = performance.now();
        note = await run(k);
        ms.push(performance.now() - t0);
      }
      const s = summary(ms);
      figures[name] = { ...s, answer: note };
      rows.push({ measure: name, n: s.n, 'p50 ms': fmt(s.p50, 1), 'p95 ms': fmt(s.p95, 1), answer: note });
    };
    // A new hour each run (warm-up included), every terminal quiet for over an hour: every baseline is refreshed.
    await time('sweep, hour turned, every terminal quiet (every baseline refreshed)', async (k) => {
      const fired = await repo.sweepNoSales(new Date(base + (k + 2) * HOUR_MS + 60_000));
      return `${fired} alerts raised`;
    });
    const night = new Date(base + (runs + 3) * HOUR_MS + 30_000);
    await repo.sweepNoSales(night);
    await time('sweep, same hour, every terminal quiet (nothing to refresh)', async (k) => {
      const fired = await repo.sweepNoSales(new Date(night.getTime() + (k + 1) * 10_000));
      return `${fired} alerts raised`;
    });
    const day = new Date(lastSale + 30_000);
    await repo.sweepNoSales(day);
    await time('sweep, same hour, 30 s after the last sale (most sold within for_s)', async (k) => {
      const fired = await repo.sweepNoSales(new Date(day.getTime() + (k + 1) * 10_000));
      return `${fired} alerts raised`;
    });
    await time('count(*) of the terminals with sales the rules reach (SQL)', async () => {
      const r = await pool.query<{ n: string }>(
        `select count(*)::text as n from sales_terminals st join terminals t on t.id = st.terminal_id
          where t.agent_id = $1 and t.decommissioned_at is null`,
        [agent!.agent_id],
      );
      return `${fmt(Number(r.rows[0]!.n))} terminals`;
    });
    const loadAfter = load();
    console.log('');
    table(rows);
    console.log(`load average (uptime) before: ${loadBefore}; after: ${loadAfter}`);
    const result = {
      scale,
      rules: nRules,
      terminals: Number(sizes.terminals),
      selling: Number(sizes.selling),
      measures: figures,
      load: { before: loadBefore, after: loadAfter },
    };
    console.log(`\nwritten to ${writeResult('no-sales-postgres', result)}`);
    return result;
  } finally {
    await pool.end();
    await target.cleanup();
  }
}

runIfMain(import.meta.url, benchNoSales);
