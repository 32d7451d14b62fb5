import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fromPglite } from '../src/db/client.ts';
import { buildFleet, seedDemo } from '../src/db/seed/demo.ts';
import { ensureSeeded } from '../src/db/seed/index.ts';
import { buildTestApp, postgresUnavailable, type TestApp, testDbKind } from './helper.ts';

const structure = async (query: (sql: string) => Promise<unknown[]>) => ({
  sites: await query('select id, company_id, title, number, city, lat, lng, timezone from sites order by id'),
  terminals: await query(
    'select id, site_id, terminal_no, card_acceptor_name, lat, lng, pump_controller from terminals order by id',
  ),
  pumps: await query('select id, site_id, terminal_id, pump_no from pumps order by id'),
  users: await query('select id, username, email, agent_id from users order by id'),
});

describe.skipIf(postgresUnavailable)('demo seed', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(async () => t?.close());

  it('seeds one agent, three companies, about 24 UK sites with 2–4 terminals and 4–8 pumps each', async () => {
    const q = t.database.query.bind(t.database);
    expect(await q('select id, name from agents')).toEqual([{ id: 1, name: 'Forecourt Agency' }]);
    expect((await q('select name from companies order by id')).map((r) => r.name)).toEqual([
      'Northern Fuels',
      'Midland Petroleum',
      'Southern Energy',
    ]);
    const sites = await q<{ id: number; lat: number; lng: number; timezone: string }>('select * from sites');
    expect(sites.length).toBeGreaterThanOrEqual(20);
    for (const s of sites) {
      expect(s.lat).toBeGreaterThan(49.9);
      expect(s.lat).toBeLessThan(58.7);
      expect(s.lng).toBeGreaterThan(-8.2);
      expect(s.lng).toBeLessThan(1.8);
      expect(s.timezone).toBe('Europe/London');
    }
    const perSite = await q<{ terminals: number; pumps: number; controllers: number }>(
      `select (select count(*)::int from terminals t where t.site_id = s.id) terminals,
              (select count(*)::int from pumps p where p.site_id = s.id) pumps,
              (select count(*)::int from terminals t where t.site_id = s.id and t.pump_controller) controllers
         from sites s`,
    );
    for (const row of perSite) {
      expect(row.terminals).toBeGreaterThanOrEqual(2);
      expect(row.terminals).toBeLessThanOrEqual(4);
      expect(row.pumps).toBeGreaterThanOrEqual(4);
      expect(row.pumps).toBeLessThanOrEqual(8);
      expect(row.controllers).toBe(1);
    }
    const pumpsOnController = await q<{ n: number }>(
      'select count(*)::int n from pumps p join terminals t on t.id = p.terminal_id where not t.pump_controller',
    );
    expect(pumpsOnController[0]!.n).toBe(0);
  });

  it('rolls up its seeded sales into the no_sales baseline, per terminal and local hour', async () => {
    const q = t.database.query.bind(t.database);
    const [sums] = await q<{ hours: number; rolled: number; sold: number }>(
      `select (select count(*)::int from sales_hours) hours,
              (select coalesce(sum(n), 0)::int from sales_hours) rolled,
              (select count(*)::int from transactions) sold`,
    );
    expect(sums!.hours).toBeGreaterThan(100);
    expect(sums!.rolled).toBe(sums!.sold);
    const wrong = await q(
      `select x.terminal_id from transactions x
        group by x.terminal_id
       having max(x.at) is distinct from (select last_at from sales_terminals st where st.terminal_id = x.terminal_id)`,
    );
    expect(wrong).toEqual([]);
  });

  it('links the demo users: agent to the agent, company to one company, site to one site of it', async () => {
    const q = t.database.query.bind(t.database);
    expect(await q('select username, agent_id from users order by id')).toEqual([
      { username: 'agent', agent_id: 1 },
      { username: 'company', agent_id: null },
      { username: 'site', agent_id: null },
    ]);
    expect(await q('select company_id from user_companies uc join users u on u.id = uc.user_id')).toEqual([
      { company_id: 1 },
    ]);
    expect(
      await q(
        'select s.company_id from user_sites us join sites s on s.id = us.site_id join users u on u.id = us.user_id',
      ),
    ).toEqual([{ company_id: 1 }]);
    for (const username of ['agent', 'company', 'site']) await t.login(username);
  });

  it('gives every log two weeks of history, newest rows near now', async () => {
    const q = t.database.query.bind(t.database);
    for (const [table, column] of [
      ['alerts', 'started_at'],
      ['telemetry', 'at'],
      ['shocks', 'created_at'],
      ['pump_status_entries', 'created_at'],
      ['transactions', 'at'],
      ['connectivity_events', 'at'],
      ['commands', 'created_at'],
    ] as const) {
      const [row] = await q<{ days: number; n: number }>(
        `select extract(epoch from max(${column}) - min(${column})) / 86400 as days, count(*)::int n from ${table}`,
      );
      expect(Number(row!.days), table).toBeGreaterThan(10);
      expect(row!.n, table).toBeGreaterThan(20);
    }
    const types = await q<{ event_type: number }>('select distinct event_type from alerts order by 1');
    expect(types.map((r) => r.event_type)).toEqual(expect.arrayContaining([1, 2, 3, 12, 13, 14, 15]));
    // An outage is one offline alert, cleared when the terminal came back: no 'Terminal online' alerts.
    expect(types.map((r) => r.event_type)).not.toContain(4);
    const offline = await q<{ state: string }>(
      'select distinct state from alerts where event_type = 3 order by 1',
    );
    expect(offline.map((r) => r.state)).toEqual(['active', 'cleared']);
    const conn = await q<{ connectivity: string; n: number }>(
      'select connectivity, count(*)::int n from terminals group by 1 order by 1',
    );
    expect(conn.map((r) => r.connectivity)).toEqual(['off', 'on']);
    const tx = await q<{ zero: number; lt1: number }>(
      'select count(*) filter (where amount = 0)::int zero, count(*) filter (where volume_l < 1)::int lt1 from transactions',
    );
    expect(tx[0]!.zero).toBeGreaterThan(0);
    expect(tx[0]!.lt1).toBeGreaterThan(0);
    const states = await q<{ state: string }>('select distinct state from commands order by 1');
    expect(states.map((r) => r.state)).toEqual(['confirmed', 'failed', 'timed_out']);
    const latest = await q<{ n: number }>(
      `select count(*)::int n from terminals t where t.telemetry_at is not null and t.battery_life =
         (select battery_life from telemetry x where x.terminal_id = t.id order by x.at desc limit 1)`,
    );
    expect(latest[0]!.n).toBe((await q('select id from terminals')).length);
  });

  it('keeps the data on restart and never re-seeds', async () => {
    const before = await t.database.query('select count(*)::int n from telemetry');
    expect(await ensureSeeded(t.database, 'demo')).toBe('kept:demo');
    expect(await ensureSeeded(t.database, 'none')).toBe('kept:demo');
    expect(await t.database.query('select count(*)::int n from telemetry')).toEqual(before);
  });

  it('generates the same statements for the same anchor (seeded PRNG)', async () => {
    const record = async () => {
      const calls: unknown[] = [];
      const query = (async (sql: string, params: unknown[] = []) => {
        calls.push(sql.includes('"users"') ? sql : [sql, params]);
        return [];
      }) as Parameters<typeof seedDemo>[0];
      await seedDemo(query, new Date('2026-03-10T12:34:56Z'));
      return calls;
    };
    expect(await record()).toEqual(await record());
    expect(buildFleet()).toEqual(buildFleet());
  });

  it.runIf(testDbKind === 'pglite')(
    "starts empty with 'none' and seeds the same sites, terminals and pumps whenever seeded",
    async () => {
      const fresh = fromPglite(await PGlite.create());
      try {
        await fresh.migrate();
        expect(await ensureSeeded(fresh, 'none')).toBe('none');
        expect(await fresh.query('select count(*)::int n from users')).toEqual([{ n: 0 }]);
        expect(await ensureSeeded(fresh, 'demo', { now: new Date('2025-01-15T09:30:00Z') })).toBe('demo');
        const q = (sql: string) => fresh.query(sql);
        const ref = (sql: string) => t.database.query(sql);
        expect(await structure(q)).toEqual(await structure(ref));
        expect(await fresh.query(`select value from meta where key = 'seed'`)).toEqual([{ value: 'demo' }]);
        const [{ max } = { max: '' }] = await fresh.query<{ max: Date }>(
          'select max(started_at) from alerts',
        );
        expect(new Date(max).getTime()).toBeLessThanOrEqual(new Date('2025-01-15T09:30:00Z').getTime());
      } finally {
        await fresh.close();
      }
    },
    120_000,
  );

  it('does not seed over a database that already has users', async () => {
    await t.database.query(`delete from meta where key = 'seed'`);
    expect(await ensureSeeded(t.database, 'demo')).toBe('skipped:not-empty');
    await t.database.query(`insert into meta (key, value) values ('seed', 'demo')`);
  });
});
