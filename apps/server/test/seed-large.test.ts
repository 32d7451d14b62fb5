import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LARGE_MARKER, type LargeSeedSummary, seedLarge } from '../src/db/seed/large.ts';
import { buildTestApp, postgresUnavailable, type TestApp } from './helper.ts';

/** The scale data set at a tiny scale (10 sites): the same SQL as LARGE_SCALE=1, checked row by row. */
describe.skipIf(postgresUnavailable)('SEED=large at LARGE_SCALE=0.002', () => {
  let t: TestApp;
  let summary: LargeSeedSummary;
  let agentId: number;
  const lines: string[] = [];
  beforeAll(async () => {
    t = await buildTestApp();
    summary = (await seedLarge(t.database, { scale: 0.002, log: (l) => lines.push(l) }))!;
    [{ agent_id: agentId }] = await t.database.query<{ agent_id: number }>(
      "select agent_id from users where username = 'agent'",
    );
    t.app.repos.org.forget();
  }, 120_000);
  afterAll(async () => t?.close());

  it('builds the counts of the scale and prints its progress', () => {
    expect(summary).toMatchObject({ scale: 0.002, companies: 12, sites: 10, terminals: 40, pumps: 60 });
    // ≥ 10M × scale telemetry rows and ≥ 1M × scale alerts.
    expect(summary.telemetry).toBeGreaterThanOrEqual(20_000);
    expect(summary.alerts).toBeGreaterThanOrEqual(2_000 * 0.95);
    expect(summary.transactions).toBe(40 * 48 * 3);
    expect(lines.some((l) => l.startsWith('telemetry day 14/14:'))).toBe(true);
    expect(lines.at(-1)).toMatch(/^done in /);
  });

  it('puts everything under the demo agent with every scope column filled', async () => {
    const [row] = await t.database.query<Record<string, number>>(
      `select (select count(*) from sites where agent_id <> $1 and number like 'L%')::int as sites,
              (select count(*) from terminals where agent_id <> $1 and terminal_no like 'L%')::int as terminals,
              (select count(*) from alerts a join terminals x on x.id = a.terminal_id
                 where x.terminal_no like 'L%' and (a.agent_id <> $1 or a.company_id <> x.company_id or a.site_id <> x.site_id))::int as alerts,
              (select count(*) from telemetry m join terminals x on x.id = m.terminal_id
                 where x.terminal_no like 'L%' and m.site_id <> x.site_id)::int as telemetry`,
      [agentId],
    );
    expect(row).toEqual({ sites: 0, terminals: 0, alerts: 0, telemetry: 0 });
  });

  it('keeps ids in time order and each terminal row on its latest reading', async () => {
    const [order] = await t.database.query<{ telemetry: number; alerts: number }>(
      `select (select count(*) from telemetry a join telemetry b on b.id = a.id + 1
                where a.at > b.at and a.terminal_id in (select id from terminals where terminal_no like 'L%'))::int as telemetry,
              (select count(*) from alerts a join alerts b on b.id = a.id + 1
                where a.started_at > b.started_at and a.terminal_id in (select id from terminals where terminal_no like 'L%')
                  and b.terminal_id in (select id from terminals where terminal_no like 'L%'))::int as alerts`,
    );
    expect(order).toEqual({ telemetry: 0, alerts: 0 });
    const [latest] = await t.database.query<{ mismatched: number }>(
      `select count(*)::int as mismatched from terminals t
        cross join lateral (select * from telemetry where terminal_id = t.id order by id desc limit 1) l
        where t.terminal_no like 'L%' and (t.battery_life <> l.battery_life or t.telemetry_at <> l.at)`,
    );
    expect(latest.mismatched).toBe(0);
  });

  it('is reachable by the agent sign-in and not by another company user', async () => {
    const [company] = await t.database.query<{ id: number }>(
      "select id from companies where name = 'Albion Fuel Cards'",
    );
    const agent = await t.as(await t.login('agent'), {
      method: 'GET',
      url: `/api/company/detail/${company.id}/`,
    });
    expect(agent.statusCode).toBe(200);
    const other = await t.as(await t.login('company'), {
      method: 'GET',
      url: `/api/company/detail/${company.id}/`,
    });
    expect(other.statusCode).toBe(403);
  });

  it('carries a month of offline history the availability report reads: cleared, open, acknowledged, windows', async () => {
    const [h] = await t.database.query<Record<string, number>>(
      `select count(*) filter (where a.cleared_at is not null)::int as cleared,
              count(*) filter (where a.cleared_at is null)::int as open,
              count(a.acknowledged_at)::int as acknowledged,
              count(*) filter (where a.started_at < now() - interval '30 days')::int as before_month,
              count(*) filter (where a.acknowledged_at > coalesce(a.cleared_at, now()) or a.cleared_at <= a.started_at)::int as bad,
              (select count(*) from terminals where terminal_no like 'L%' and created_at < now() - interval '30 days')::int as old_terminals,
              (select count(*) from maintenance_windows where weekdays is not null)::int as weekly,
              (select count(*) from maintenance_windows where weekdays is null)::int as one_off
         from alerts a join terminals x on x.id = a.terminal_id
        where x.terminal_no like 'L%' and a.event_type = 3`,
    );
    expect(h.cleared).toBeGreaterThan(40);
    expect(h.acknowledged).toBeGreaterThan(5);
    expect(h.before_month).toBeGreaterThan(0);
    expect(h.bad).toBe(0);
    expect(h.old_terminals).toBeGreaterThan(30);
    expect(h.weekly).toBeGreaterThanOrEqual(1); // the company's weekly window at least
    // One active offline alert per terminal offline now, none for a terminal online.
    const [open] = await t.database.query<{ mismatched: number }>(
      `select count(*)::int as mismatched from terminals x
        where x.terminal_no like 'L%'
          and (select count(*) from alerts a where a.terminal_id = x.id and a.event_type = 3 and a.state = 'active')
              <> case when x.connectivity = 'off' then 1 else 0 end`,
    );
    expect(open.mismatched).toBe(0);
    // A terminal's outages never overlap.
    const [overlap] = await t.database.query<{ n: number }>(
      `select count(*)::int as n from alerts a join alerts b
          on b.terminal_id = a.terminal_id and b.id <> a.id and b.event_type = 3
         and b.started_at >= a.started_at and b.started_at < coalesce(a.cleared_at, 'infinity')
        where a.event_type = 3`,
    );
    expect(overlap.n).toBe(0);
    const company = await t.database.query<{ id: number }>(
      "select id from companies where name = 'Albion Fuel Cards'",
    );
    const res = await t.as(await t.login('agent'), {
      method: 'GET',
      url: `/api/reports/company/${company[0]!.id}/availability/`,
    });
    expect(res.statusCode).toBe(200);
    const body = res.json() as {
      total: { availability: number; downtime_s: number; incidents: number; mttr_s: number };
    };
    expect(body.total.incidents).toBeGreaterThan(0);
    expect(body.total.downtime_s).toBeGreaterThan(0);
    expect(body.total.availability).toBeGreaterThan(0.9);
    expect(body.total.availability).toBeLessThan(1);
  });

  it('is not built twice', async () => {
    expect(await seedLarge(t.database, { scale: 0.002, log: () => {} })).toBeNull();
    const marker = await t.database.query('select value from meta where key = $1', [LARGE_MARKER]);
    expect(marker).toHaveLength(1);
    const [{ n }] = await t.database.query<{ n: number }>(
      "select count(*)::int as n from sites where number like 'L%'",
    );
    expect(n).toBe(10);
  });
});
