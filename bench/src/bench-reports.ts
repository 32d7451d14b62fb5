import { onLargeDataset } from './lib/large-run.ts';
import { authHeader, signedInAgent } from './lib/load.ts';
import { fmt, isMain, summary, table, uptimeLoad, waitForQuiet, writeResult } from './lib/report.ts';

const DAY_MS = 86_400_000;

/**
 * bench:reports — on the scale data set (SEED=large), through the real server: p50/p95 of a 30-day availability
 * report of the whole agent (`GET /api/reports/agent/{id}/availability/`, by site and by terminal) and of its alert
 * report, each next to a plain `count(*)` of the same alerts straight on PostgreSQL in the same run (the offline
 * alerts the availability report reads; every alert started in the period for the alert report): what the report's
 * one statement (union of intervals, windows, sums by site) costs over reading its rows at all.
 * PostgreSQL only. Pin it apart from the server: `taskset -c 0 npm run bench:reports` (the server runs on CPU 1,
 * `--server-cpus`). `--scale` (default 1: 20,000 terminals), `--requests` (default 30).
 */
export async function benchReports(argv = process.argv.slice(2)) {
  return onLargeDataset(
    'reports',
    argv,
    { poolMax: 2, defaultScale: 1 },
    async ({ args, scale, pool, server }) => {
      const requests = Number(args.flags.get('requests') ?? 30);
      const { token, agentId } = await signedInAgent(server.url);
      const sizes = (
        await pool.query<{ terminals: string; alerts: string; offline: string }>(
          `select (select count(*) from terminals where agent_id = $1)::text as terminals,
                (select count(*) from alerts where agent_id = $1)::text as alerts,
                (select count(*) from alerts where agent_id = $1 and event_type = 3)::text as offline`,
          [agentId],
        )
      ).rows[0]!;
      console.log(
        `agent ${agentId}: ${fmt(Number(sizes.terminals))} terminals, ${fmt(Number(sizes.alerts))} alerts of which ${fmt(Number(sizes.offline))} offline`,
      );
      await waitForQuiet(args.wait);
      const loadBefore = uptimeLoad();

      const rows: Array<Record<string, string | number>> = [];
      const figures: Record<string, unknown> = {};
      const time = async (name: string, run: (k: number) => Promise<string>) => {
        for (let k = 0; k < 3; k++) await run(-1 - k); // warm-up
        const ms: number[] = [];
        let note = '';
        for (let k = 0; k < requests; k++) {
          const t0 = performance.now();
          note = await run(k);
          ms.push(performance.now() - t0);
        }
        const s = summary(ms);
        figures[name] = { ...s, answer: note };
        rows.push({
          request: name,
          n: String(s.n),
          'p50 ms': fmt(s.p50, 1),
          'p95 ms': fmt(s.p95, 1),
          answer: note,
        });
      };
      // Each request ends at another second: no shared answer serves a repeat.
      const period = (k: number) => {
        const to = Date.now() - (k + 10) * 1000;
        return { from: new Date(to - 30 * DAY_MS).toISOString(), to: new Date(to).toISOString() };
      };
      const get = async (path: string) => {
        const res = await fetch(`${server.url}${path}`, { headers: authHeader(token) });
        const body = await res.text();
        if (res.status !== 200) throw new Error(`${path}: ${res.status} ${body.slice(0, 200)}`);
        return body;
      };
      for (const groupBy of ['site', 'terminal'] as const) {
        await time(`availability, 30 days, by ${groupBy}`, async (k) => {
          const p = period(k);
          const body = JSON.parse(
            await get(
              `/api/reports/agent/${agentId}/availability/?from=${p.from}&to=${p.to}&group_by=${groupBy}`,
            ),
          ) as { rows: unknown[]; total: { availability: number; incidents: number } };
          return `${body.rows.length} rows, availability ${body.total.availability}, ${body.total.incidents} incidents`;
        });
      }
      await time('alert report, 30 days', async (k) => {
        const p = period(k);
        const body = JSON.parse(
          await get(`/api/reports/agent/${agentId}/alerts/?from=${p.from}&to=${p.to}`),
        ) as unknown[];
        return `${body.length} event types`;
      });
      await time('count(*) of the same offline alerts (SQL)', async (k) => {
        const p = period(k);
        const r = await pool.query<{ n: string }>(
          `select count(*)::text as n from alerts
          where agent_id = $1 and event_type = 3 and started_at < $3 and (cleared_at is null or cleared_at > $2)`,
          [agentId, p.from, p.to],
        );
        return `${fmt(Number(r.rows[0]!.n))} alerts`;
      });
      await time('count(*) of the same alerts, all types (SQL)', async (k) => {
        const p = period(k);
        const r = await pool.query<{ n: string }>(
          `select count(*)::text as n from alerts where agent_id = $1 and started_at >= $2 and started_at < $3`,
          [agentId, p.from, p.to],
        );
        return `${fmt(Number(r.rows[0]!.n))} alerts`;
      });
      const loadAfter = uptimeLoad();
      console.log('');
      table(rows);
      console.log(`load average (uptime) before: ${loadBefore}; after: ${loadAfter}`);
      const result = {
        scale,
        terminals: Number(sizes.terminals),
        alerts: Number(sizes.alerts),
        offlineAlerts: Number(sizes.offline),
        requests: figures,
        load: { before: loadBefore, after: loadAfter },
      };
      console.log(`\nwritten to ${writeResult('reports-postgres', result)}`);
      return result;
    },
  );
}

if (isMain(import.meta.url)) {
  benchReports().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
