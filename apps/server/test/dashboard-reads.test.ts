import { HARDWARE_EVENT_TYPES } from '@forecourt/contract/events';
import {
  AlertSchema,
  ConnectivitySchema,
  SiteStatusSchema,
  SiteTerminalSchema,
  TimeZoneSchema,
} from '@forecourt/contract/fleet';
import { utcOffsetHours } from '@forecourt/contract/formatters';
import { PumpStatusLogSchema } from '@forecourt/contract/pumps';
import { TransactionActivitySchema } from '@forecourt/contract/transactions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { buildTestApp, postgresUnavailable, sharedDemoApp, type TestApp } from './helper.ts';
import { DATA_ROUTES, fill, LOG_ROUTES, READ_ROUTES, scopedReadPaths } from './read-routes-table.ts';

describe.skipIf(postgresUnavailable)('fleet reads', () => {
  const s = sharedDemoApp();
  const get: TestApp['get'] = (...args) => s.t.get(...args);

  it('registers every read of the table, and the table covers every scoped GET the API documents', async () => {
    const openapi = (await s.t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json();
    const documented = scopedReadPaths(openapi);
    expect(documented).toEqual(expect.arrayContaining(READ_ROUTES.map((r) => r.path)));
    const mine = new Set(READ_ROUTES.map((r) => r.path));
    const others = documented.filter((p) => !mine.has(p));
    // Scoped reads someone else added belong in the table (and so in the scope matrix).
    expect(others).toEqual([]);
  });

  it.each(READ_ROUTES.map((r) => [r.path, r] as const))(
    '%s answers its contract shape',
    async (_p, route) => {
      const res = await get(s.agent, fill(route.path, 1, 1));
      expect(res.statusCode, res.body).toBe(200);
      const body = route.schema.parse(res.json());
      if (Array.isArray(body)) expect(body.length).toBeGreaterThan(0);
      expect(res.headers['content-type']).toMatch(/application\/json/);
    },
  );

  it('answers alerts newest first with the terminal number, issue, company and site names', async () => {
    const rows = z.array(AlertSchema).parse((await get(s.agent, '/api/alerts/agent/1/')).json());
    expect(rows).toHaveLength(100);
    const ids = rows.map((r) => r.id);
    expect([...ids].sort((a, b) => b - a)).toEqual(ids);
    for (const r of rows) {
      expect(r.issue).toBe(r.text.split(':')[0]!.trim());
      expect(r.number).toMatch(/^\d{8}$/);
      expect(['Northern Fuels', 'Midland Petroleum', 'Southern Energy']).toContain(r.customer_name);
    }
    const limited = z
      .array(AlertSchema)
      .parse((await get(s.agent, '/api/alerts/agent/1/?limit_to=7')).json());
    expect(limited.map((r) => r.id)).toEqual(ids.slice(0, 7));
  });

  it('filters alerts by repeated event_type (hardware issues)', async () => {
    const qs = HARDWARE_EVENT_TYPES.map((e) => `event_type=${e}`).join('&');
    const rows = z.array(AlertSchema).parse((await get(s.company, `/api/alerts/company/1/?${qs}`)).json());
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((r) => HARDWARE_EVENT_TYPES.includes(r.event_type))).toBe(true);
    expect(rows.every((r) => r.customer_name === 'Northern Fuels')).toBe(true);
    const one = z.array(AlertSchema).parse((await get(s.site, '/api/alerts/site/1/?event_type=1')).json());
    expect(one.length).toBeGreaterThan(0);
    expect(one.every((r) => r.event_type === 1 && r.site_name === 'Leeds Kirkstall Road')).toBe(true);
  });

  it('lists one connectivity row per terminal, offline only with offline=true', async () => {
    const [{ n }] = await s.t.database.query<{ n: number }>(
      'select count(*)::int n from terminals where company_id = 1',
    );
    const all = z
      .array(ConnectivitySchema)
      .parse((await get(s.company, '/api/company/1/connectivity/')).json());
    expect(all).toHaveLength(n);
    expect(new Set(all.map((r) => r.number)).size).toBe(n);
    const offline = z
      .array(ConnectivitySchema)
      .parse((await get(s.company, '/api/company/1/connectivity/?limit_to=10&offline=true')).json());
    expect(offline.length).toBeGreaterThan(0);
    expect(offline.length).toBeLessThanOrEqual(10);
    expect(offline.every((r) => r.status === 'off')).toBe(true);
    expect(offline.length).toBe(all.filter((r) => r.status === 'off').length);
  });

  it('counts online terminals as site status (0 = none online)', async () => {
    const rows = z.array(SiteStatusSchema).parse((await get(s.agent, '/api/agent/1/sites/')).json());
    expect(rows).toHaveLength(24);
    const glasgow = rows.find((r) => r.title.startsWith('Glasgow'))!;
    expect(glasgow.status).toBe(0);
    const counts = await s.t.database.query<{ id: number; n: number }>(
      `select site_id id, count(*) filter (where connectivity = 'on')::int n from terminals group by 1`,
    );
    for (const c of counts) expect(rows.find((r) => r.id === c.id)!.status).toBe(c.n);
  });

  it('colours map markers by connectivity: on green, off red, anything else yellow', async () => {
    await s.t.database.query(`update terminals set connectivity = 'unknown' where id = 2`);
    s.t.app.snapshots.clear();
    const rows = (await get(s.agent, '/api/agent/1/map/terminals/')).json() as Array<{
      id: number;
      terminals: Array<{ terminal_id: string; marker_color: string }>;
    }>;
    const byNo = new Map(rows.flatMap((s) => s.terminals).map((x) => [x.terminal_id, x.marker_color]));
    const states = await s.t.database.query<{ terminal_no: string; connectivity: string }>(
      'select terminal_no, connectivity from terminals',
    );
    for (const s of states) {
      expect(byNo.get(s.terminal_no)).toBe(
        s.connectivity === 'on' ? 'green' : s.connectivity === 'off' ? 'red' : 'yellow',
      );
    }
    expect([...byNo.values()]).toContain('yellow');
    const aerial = (await get(s.site, '/api/site/1/map/terminals/')).json() as Array<{
      connectivity: string;
    }>;
    expect(aerial.map((a) => a.connectivity)).toContain('unknown');
    await s.t.database.query(`update terminals set connectivity = 'on' where id = 2`);
    s.t.app.snapshots.clear();
  });

  it("lists the site's terminals with their position, connectivity, tags and software version", async () => {
    const list = z.array(SiteTerminalSchema).parse((await get(s.site, '/api/site/1/terminals/')).json());
    const rows = await s.t.database.query<{
      id: number;
      terminal_no: string;
      lat: number;
      lng: number;
      connectivity: string;
      tags: string[];
      software_version: string | null;
    }>(
      `select t.id, t.terminal_no, coalesce(t.lat, s.lat) as lat, coalesce(t.lng, s.lng) as lng, t.connectivity,
              t.tags, t.software_version
         from terminals t join sites s on s.id = t.site_id where t.site_id = 1 order by t.id`,
    );
    expect(rows.length).toBeGreaterThan(0);
    expect(list).toEqual(
      rows.map((r) => ({
        id: r.id,
        terminal_id: r.terminal_no,
        site_id: 1,
        lat: Number(r.lat),
        lng: Number(r.lng),
        connectivity: r.connectivity === 'on' ? 'on' : 'off',
        tags: r.tags,
        software_version: r.software_version,
      })),
    );
    for (const x of list) {
      expect(typeof x.lat).toBe('number');
      expect(typeof x.lng).toBe('number');
    }
  });

  it('gives time zones their current offset from the IANA name', async () => {
    const zones = z.array(TimeZoneSchema).parse((await get(s.company, '/api/company/1/time/zones/')).json());
    expect(zones.length).toBeGreaterThan(1);
    for (const z0 of zones) expect(z0.tz).toBe(utcOffsetHours(z0.iana));
    const agentZones = z.array(TimeZoneSchema).parse((await get(s.agent, '/api/agent/1/time/zones/')).json());
    expect(agentZones.map((x) => x.iana)).toContain('Asia/Tokyo');
    expect(agentZones.find((x) => x.iana === 'Asia/Tokyo')!.tz).toBe(9);
  });

  it('keys pump status by pump number, newest first, bounded per pump', async () => {
    const log = PumpStatusLogSchema.parse((await get(s.site, '/api/site/1/pumps/status/?limit_to=3')).json());
    const pumps = await s.t.database.query<{ pump_no: number }>(
      'select pump_no from pumps where site_id = 1',
    );
    expect(Object.keys(log).sort()).toEqual(pumps.map((p) => String(p.pump_no)).sort());
    for (const entries of Object.values(log)) {
      expect(entries.length).toBeLessThanOrEqual(3);
      const times = entries.map((e) => e.created_at);
      expect([...times].sort().reverse()).toEqual(times);
    }
  });

  it('reports the latest reading of each terminal with the site as customer', async () => {
    const battery = (await get(s.site, '/api/site/1/terminals/battery/')).json() as Array<{
      life: number;
      terminal: { terminal_id: string; id: number };
      customer: string;
      site_number: string;
    }>;
    const rows = await s.t.database.query<{ id: number; battery_life: number }>(
      'select id, battery_life from terminals where site_id = 1 order by id',
    );
    expect(battery.map((b) => [b.terminal.id, b.life])).toEqual(rows.map((r) => [r.id, r.battery_life]));
    expect(battery.every((b) => b.customer === 'Leeds Kirkstall Road' && b.site_number === '1001')).toBe(
      true,
    );
    const env = await get(s.site, '/api/site/1/terminals/environment/?latest=true');
    expect(env.statusCode).toBe(200);
    expect(
      await get(s.site, '/api/site/1/terminals/environment/?latest=maybe').then((r) => r.statusCode),
    ).toBe(400);
  });

  it('buckets transactions: 12 five-minute and 24 hourly buckets, oldest first, three series', async () => {
    await s.t.database.query(
      `insert into transactions (terminal_id, site_id, at, volume_l, amount) values
         (1, 1, now() - interval '1 second', 20, 30), (1, 1, now() - interval '1 second', 10, 0),
         (1, 1, now() - interval '1 second', 0.5, 0.8)`,
    );
    s.t.app.snapshots.clear();
    const before = await s.t.database.query<{ normal: number; zero: number; lt1: number }>(
      `select count(*) filter (where amount <> 0 and volume_l >= 1)::int normal,
              count(*) filter (where amount = 0)::int zero,
              count(*) filter (where amount <> 0 and volume_l < 1)::int lt1
         from transactions where site_id = 1 and at >= date_trunc('hour', now()) - interval '23 hours'`,
    );
    const body = TransactionActivitySchema.parse((await get(s.site, '/api/transactions/1/')).json());
    const starts = body.buckets_1_hour.map((b) => Date.parse(b));
    for (let i = 1; i < 12; i++) expect(starts[i]! - starts[i - 1]!).toBe(300_000);
    const hours = body.buckets_24_hours.map((b) => Date.parse(b));
    for (let i = 1; i < 24; i++) expect(hours[i]! - hours[i - 1]!).toBe(3_600_000);
    expect(Date.now() - starts[11]!).toBeLessThan(300_000 + 5_000);
    const sum = (a: number[]) => a.reduce((s, v) => s + v, 0);
    expect(sum(body.transaction_in_24_hours)).toBe(before[0]!.normal);
    expect(sum(body.transaction_0_in_24_hours)).toBe(before[0]!.zero);
    expect(sum(body.transaction_lt1_in_24_hours)).toBe(before[0]!.lt1);
    expect(body.transaction_in_1_hour[11]).toBeGreaterThanOrEqual(1);
    expect(body.transaction_0_in_1_hour[11]).toBeGreaterThanOrEqual(1);
    expect(body.transaction_lt1_in_1_hour[11]).toBeGreaterThanOrEqual(1);
  });

  it('answers 404 for an unknown or non-numeric id and 401 without a token', async () => {
    for (const route of [...DATA_ROUTES, ...LOG_ROUTES]) {
      expect((await get(s.agent, fill(route.path, 99999, 99999))).statusCode, route.path).toBe(404);
      expect((await get(s.agent, fill(route.path, 'abc', 'abc'))).statusCode, route.path).toBe(404);
      expect(
        (await s.t.app.inject({ method: 'GET', url: fill(route.path, 1, 1) })).statusCode,
        route.path,
      ).toBe(401);
    }
  });
});

describe.skipIf(postgresUnavailable)('polling: ETags and shared snapshots', () => {
  let t: TestApp;
  let agent: string;
  let company: string;
  beforeAll(async () => {
    t = await buildTestApp();
    agent = await t.login('agent');
    company = await t.login('company');
  });
  afterAll(async () => t?.close());

  it('answers 304 with the same ETag when the caller already has the data', async () => {
    const first = await t.as(agent, { method: 'GET', url: '/api/agent/1/connectivity/' });
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^"[\w-]+"$/);
    const again = await t.as(agent, {
      method: 'GET',
      url: '/api/agent/1/connectivity/',
      headers: { 'if-none-match': etag },
    });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    expect(again.headers.etag).toBe(etag);
    const weak = await t.as(agent, {
      method: 'GET',
      url: '/api/agent/1/connectivity/',
      headers: { 'if-none-match': `"stale", W/${etag}` },
    });
    expect(weak.statusCode).toBe(304);
    const stale = await t.as(agent, {
      method: 'GET',
      url: '/api/agent/1/connectivity/',
      headers: { 'if-none-match': '"stale"' },
    });
    expect(stale.statusCode).toBe(200);
    expect(stale.json()).toEqual(first.json());
  });

  it('changes the ETag when the data changes and the snapshot is invalidated by a write', async () => {
    const url = '/api/alerts/company/1/?limit_to=5';
    const first = await t.as(company, { method: 'GET', url });
    await t.database.query(
      `insert into alerts (terminal_id, site_id, company_id, agent_id, event_type, text, started_at)
       values (1, 1, 1, 1, 1, 'Card reader failure: test insert', now())`,
    );
    expect(
      t.app.snapshots.invalidate({ agentId: 1, companyId: 1, siteId: 1, terminalId: 1 }),
    ).toBeGreaterThan(0);
    const second = await t.as(company, {
      method: 'GET',
      url,
      headers: { 'if-none-match': first.headers.etag as string },
    });
    expect(second.statusCode).toBe(200);
    expect(second.headers.etag).not.toBe(first.headers.etag);
    expect(second.json()[0].text).toBe('Card reader failure: test insert');
  });

  it('serves N concurrent pollers of one company from one query, still checking scope per request', async () => {
    const url = '/api/company/1/connectivity/?limit_to=10&offline=true';
    // Warm the token, principal and org caches on another route of the same company.
    await t.as(agent, { method: 'GET', url: '/api/company/1/sites/' });
    await t.as(company, { method: 'GET', url: '/api/company/1/sites/' });
    const site = await t.login('site');
    t.app.snapshots.clear();
    const original = t.database.query;
    const seen: string[] = [];
    t.database.query = ((sql: string, params?: unknown[]) => {
      seen.push(sql);
      return original.call(t.database, sql, params);
    }) as typeof original;
    try {
      const responses = await Promise.all([
        ...Array.from({ length: 25 }, () => t.as(agent, { method: 'GET', url })),
        ...Array.from({ length: 25 }, () => t.as(company, { method: 'GET', url })),
        t.as(site, { method: 'GET', url }),
      ]);
      expect(responses.slice(0, 50).every((r) => r.statusCode === 200)).toBe(true);
      expect(responses[50]!.statusCode).toBe(403);
      expect(new Set(responses.slice(0, 50).map((r) => r.body)).size).toBe(1);
      const reads = seen.filter((sql) => sql.includes('from terminals t join sites s'));
      expect(reads).toHaveLength(1);
    } finally {
      t.database.query = original;
    }
  });

  it('shows a pump command at once: the write drops the site, company and agent snapshots', async () => {
    const [pump] = await t.database.query<{ id: number; pump_no: number }>(
      'select id, pump_no from pumps where site_id = 1 and status = 0 and last_synapse_status = 0 order by pump_no limit 1',
    );
    const pumpsUrl = '/api/site/1/pumps/';
    const logUrl = '/api/company/1/pump/activation/log/?limit_to=1';
    const before = await t.as(agent, { method: 'GET', url: pumpsUrl });
    const logBefore = await t.as(agent, { method: 'GET', url: logUrl });
    expect(before.json().find((p: { id: number }) => p.id === pump!.id).status).toBe(0);
    const turn = await t.as(agent, { method: 'POST', url: `/api/pump/${pump!.id}/turn/on/` });
    expect(turn.statusCode, turn.body).toBe(200);
    await new Promise((r) => setImmediate(r));
    const after = await t.as(agent, {
      method: 'GET',
      url: pumpsUrl,
      headers: { 'if-none-match': before.headers.etag as string },
    });
    expect(after.statusCode).toBe(200);
    const row = after.json().find((p: { id: number }) => p.id === pump!.id);
    expect([row.status, row.last_synapse_status]).toEqual([1, 0]);
    const logAfter = await t.as(agent, { method: 'GET', url: logUrl });
    expect(logAfter.headers.etag).not.toBe(logBefore.headers.etag);
    expect(logAfter.json()[0]).toMatchObject({ pump_no: pump!.pump_no, kind: 'pump_on', state: 'queued' });
  });

  it('keeps separate snapshots per query and per scope id', async () => {
    const a = await t.as(agent, { method: 'GET', url: '/api/alerts/company/1/?limit_to=3' });
    const b = await t.as(agent, { method: 'GET', url: '/api/alerts/company/1/?limit_to=4' });
    const c = await t.as(agent, { method: 'GET', url: '/api/alerts/company/2/?limit_to=3' });
    expect(a.json()).toHaveLength(3);
    expect(b.json()).toHaveLength(4);
    expect(c.json().every((r: { customer_name: string }) => r.customer_name === 'Midland Petroleum')).toBe(
      true,
    );
    expect(new Set([a.headers.etag, b.headers.etag, c.headers.etag]).size).toBe(3);
  });
});
