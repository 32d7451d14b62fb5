import { ErrorBodySchema } from '@forecourt/contract/common';
import { type TelemetryBucket, TelemetryHistorySchema } from '@forecourt/contract/telemetry-history';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTelemetryHistory } from '../src/services/telemetry-history.ts';
import { deviceCall, type FleetFixture, fleetFixture, provisionDevice } from './fleet-fixture.ts';
import { buildTestApp, postgresUnavailable, type TestApp } from './helper.ts';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const MINUTE = 60_000;

interface Reading {
  at: number;
  battery: number | null;
  board: number;
}

/** Three days of readings every 2 minutes, 30 days ago: battery missing in every 7th, falling slowly with noise. */
function readings(base: number): Reading[] {
  const list: Reading[] = [];
  for (let i = 0; i < 3 * 24 * 30; i++) {
    list.push({
      at: base + i * 2 * MINUTE + ((i * 7919) % 60) * 1000,
      battery: i % 7 === 3 ? null : Math.round((90 - i / 40 + 5 * Math.sin(i / 9)) * 10) / 10,
      board: Math.round((40 + 6 * Math.cos(i / 13)) * 10) / 10,
    });
  }
  return list;
}

/** What a chart of these readings holds: buckets of `stepMs` from `origin`, over readings in [from, to). */
function expected(list: Reading[], origin: number, from: number, to: number, stepMs: number) {
  const buckets = new Map<number, number[]>();
  for (const r of list) {
    if (r.at < from || r.at >= to || r.battery === null) continue;
    const k = origin + Math.floor((r.at - origin) / stepMs) * stepMs;
    buckets.set(k, [...(buckets.get(k) ?? []), r.battery]);
  }
  return [...buckets.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([at, vs]) => ({
      at: new Date(at).toISOString(),
      avg: vs.reduce((a, b) => a + b, 0) / vs.length,
      min: Math.min(...vs),
      max: Math.max(...vs),
      n: vs.length,
    }));
}

function expectBuckets(actual: TelemetryBucket[], want: ReturnType<typeof expected>) {
  expect(actual.map((b) => [b.at, b.n, b.min, b.max])).toEqual(want.map((b) => [b.at, b.n, b.min, b.max]));
  actual.forEach((b, i) => {
    expect(b.avg).toBeCloseTo(want[i]!.avg, 9);
  });
}

describe.skipIf(postgresUnavailable)('terminal telemetry history', () => {
  let t: TestApp;
  let f: FleetFixture;
  let site: string;
  let agent: string;
  let list: Reading[];
  let base: number;
  const now = new Date();
  const url = (q: string, id = f.plainTerminalId) => `/api/terminal/${id}/telemetry/?${q}`;
  const get = async (token: string, q: string, id?: number) => {
    const res = await t.as(token, { method: 'GET', url: url(q, id) });
    return res;
  };
  const chart = async (q: string) => {
    const res = await get(site, q);
    expect(res.statusCode, res.body).toBe(200);
    return TelemetryHistorySchema.parse(res.json());
  };
  const range = (from: number, to: number) =>
    `from=${new Date(from).toISOString()}&to=${new Date(to).toISOString()}`;

  beforeAll(async () => {
    t = await buildTestApp();
    f = await fleetFixture(t.database);
    [site, agent] = await Promise.all([t.login('site'), t.login('agent')]);
    base = Math.floor((now.getTime() - 30 * DAY) / HOUR) * HOUR;
    list = readings(base);
    await t.database.query(
      `insert into telemetry (terminal_id, site_id, at, battery_life, temperature_main_board)
       select $1, $2, u.* from unnest($3::timestamptz[], $4::float8[], $5::float8[]) u`,
      [
        f.plainTerminalId,
        f.siteId,
        list.map((r) => new Date(r.at)),
        list.map((r) => r.battery),
        list.map((r) => r.board),
      ],
    );
  });
  afterAll(async () => {
    await t?.close();
  });

  it('lists every reading as it is when they fit (step_s 0, n 1)', async () => {
    const from = base;
    const to = base + 10 * HOUR;
    const body = await chart(`signal=battery_life&${range(from, to)}`);
    const want = list.filter((r) => r.at >= from && r.at < to && r.battery !== null);
    expect(body.signal).toBe('battery_life');
    expect(body.from).toBe(new Date(from).toISOString());
    expect(body.step_s).toBe(0);
    expect(body.points).toEqual(
      want.map((r) => ({
        at: new Date(r.at).toISOString(),
        avg: r.battery,
        min: r.battery,
        max: r.battery,
        n: 1,
      })),
    );
  });

  it('buckets the readings when they do not fit: at most `points`, oldest first, empty ones left out', async () => {
    const from = base - 6 * HOUR;
    const to = base + 3 * DAY;
    const body = await chart(`signal=battery_life&${range(from, to)}&points=100`);
    const step = Math.ceil((to - from) / 1000 / 100);
    expect(body.step_s).toBe(step);
    expect(body.points.length).toBeLessThanOrEqual(100);
    expect(body.points[0]!.at).toBe(new Date(base - ((base - from) % (step * 1000))).toISOString());
    expectBuckets(body.points, expected(list, from, from, to, step * 1000));
  });

  it('rolls up closed hours into rows equal to a computation over the raw rows, idempotently', async () => {
    const upkeep = createTelemetryHistory({
      repo: t.app.repos.telemetryHistory,
      log: t.app.log,
      rawRetentionDays: 90,
      rollupRetentionDays: 730,
      hoursPerStep: 48,
      budgetMs: 600_000,
    });
    // Hours before the chart's data hold the demo fleet only; rolling up twice changes nothing.
    await upkeep.pass(now);
    const first = await t.database.query('select * from telemetry_hourly order by terminal_id, hour');
    await t.database.query(`delete from rollup_state`);
    await upkeep.pass(now);
    expect(await t.database.query('select * from telemetry_hourly order by terminal_id, hour')).toEqual(
      first,
    );

    const rows = await t.database.query<{
      hour: Date;
      battery_life_n: number;
      battery_life_sum: number;
      battery_life_min: number;
      battery_life_max: number;
      temperature_main_board_n: number;
      temperature_main_board_max: number;
      flash_left_n: number;
    }>(`select * from telemetry_hourly where terminal_id = $1 and hour >= $2 and hour < $3 order by hour`, [
      f.plainTerminalId,
      new Date(base),
      new Date(base + 3 * DAY),
    ]);
    expect(rows).toHaveLength(72);
    for (const row of rows) {
      const h = new Date(row.hour).getTime();
      const inHour = list.filter((r) => r.at >= h && r.at < h + HOUR);
      const battery = inHour.flatMap((r) => (r.battery === null ? [] : [r.battery]));
      expect(row.battery_life_n).toBe(battery.length);
      expect(row.battery_life_sum).toBeCloseTo(
        battery.reduce((a, b) => a + b, 0),
        9,
      );
      expect(row.battery_life_min).toBe(Math.min(...battery));
      expect(row.battery_life_max).toBe(Math.max(...battery));
      expect(row.temperature_main_board_n).toBe(inHour.length);
      expect(row.temperature_main_board_max).toBe(Math.max(...inHour.map((r) => r.board)));
      expect(row.flash_left_n).toBe(0);
    }
  }, 120_000);

  it('answers long ranges in whole hours from the roll-ups, agreeing with the raw rows', async () => {
    const from = base + 20 * MINUTE;
    const to = base + 3 * DAY;
    const body = await chart(`signal=battery_life&${range(from, to)}&points=20`);
    expect(body.step_s).toBe(4 * 3600);
    expect(body.points.length).toBeLessThanOrEqual(20);
    expectBuckets(body.points, expected(list, base, base, to, 4 * HOUR));
  });

  it('rolls up again an hour that gets readings after it was rolled up', async () => {
    const hour = base + 5 * HOUR;
    const [row0] = await t.database.query<{ company_id: number; agent_id: number; terminal_no: string }>(
      'select company_id, agent_id, terminal_no from terminals where id = $1',
      [f.plainTerminalId],
    );
    const terminal = {
      id: f.plainTerminalId,
      siteId: f.siteId,
      companyId: row0!.company_id,
      agentId: row0!.agent_id,
      terminalNo: row0!.terminal_no,
      siteTitle: '',
      connectivity: 'on',
    };
    const late = { at: new Date(hour + 30 * MINUTE).toISOString(), battery_life: 3 };
    await t.app.deviceWrites.telemetry([{ terminal, points: [late], now }]);
    list.push({ at: hour + 30 * MINUTE, battery: 3, board: Number.NaN });
    await createTelemetryHistory({
      repo: t.app.repos.telemetryHistory,
      log: t.app.log,
      rawRetentionDays: 90,
      rollupRetentionDays: 730,
      hoursPerStep: 48,
    }).pass(now);
    const [row] = await t.database.query<{ battery_life_min: number; battery_life_n: number }>(
      'select battery_life_min, battery_life_n from telemetry_hourly where terminal_id = $1 and hour = $2',
      [f.plainTerminalId, new Date(hour)],
    );
    const want = expected(list, hour, hour, hour + HOUR, HOUR)[0]!;
    expect(row).toEqual({ battery_life_min: 3, battery_life_n: want.n });
    expect(
      await t.database.query('select count(*)::int as n from telemetry_rollup_pending where hour < $1', [
        new Date(now.getTime() - HOUR),
      ]),
    ).toEqual([{ n: 0 }]);
  });

  it('moves rows into new partitions without losing one, and answers from roll-ups once raw days are dropped', async () => {
    const count = () =>
      t.database.query<{ n: number }>('select count(*)::int as n from telemetry where terminal_id = $1', [
        f.plainTerminalId,
      ]);
    const before = await count();
    const from = base;
    const to = base + 3 * DAY;
    const long = await chart(`signal=battery_life&${range(from, to)}&points=20`);
    // Partitions for the days 30 days ago take their rows out of the default partition.
    await t.database.query(`select history_ensure_partitions('telemetry', 'at', 'day', $1, $2)`, [
      new Date(base),
      new Date(base + 4 * DAY),
    ]);
    expect(await count()).toEqual(before);
    const [inDefault] = await t.database.query<{ n: number }>(
      'select count(*)::int as n from telemetry_default where at >= $1 and at < $2',
      [new Date(base), new Date(base + 3 * DAY)],
    );
    expect(inDefault?.n).toBe(0);
    const dropped = await t.app.repos.telemetryHistory.maintainPartitions(now, {
      rawDays: 20,
      rollupDays: 730,
    });
    expect(dropped.dropped.raw).toBeGreaterThanOrEqual(3);
    expect((await count())[0]!.n).toBeLessThan(before[0]!.n);
    const again = await t.app.repos.telemetryHistory.history({
      terminalId: f.plainTerminalId,
      signal: 'battery_life',
      from: new Date(from),
      to: new Date(to),
      points: 20,
      rawSince: new Date(now.getTime() - 20 * DAY),
    });
    expect(again.step_s).toBe(long.step_s);
    expectBuckets(again.points, long.points);
  });

  it('answers a reading the terminal has just posted, though the same range was read a moment before', async () => {
    const device = await provisionDevice(t, agent, f.plainTerminalId);
    // A range that starts a minute ago and ends now: the address a live chart asks again after each reading.
    const q = `signal=flash_left&from=${new Date(Date.now() - MINUTE).toISOString()}&points=2000`;
    expect((await chart(q)).points).toEqual([]);
    const res = await deviceCall(t, device, 'POST', 'telemetry', { flash_left: 42.5 });
    expect(res.statusCode, res.body).toBe(202);
    expect((await chart(q)).points.map((p) => [p.avg, p.n])).toEqual([[42.5, 1]]);
  });

  it('defaults to the last 24 hours and 500 points', async () => {
    const body = await chart('signal=temperature_main_board');
    const span = Date.parse(body.to) - Date.parse(body.from);
    expect(span).toBe(DAY);
    expect(Math.abs(Date.parse(body.to) - Date.now())).toBeLessThan(60_000);
    expect(body.points.length).toBeGreaterThan(0);
    expect(body.points.length).toBeLessThanOrEqual(500);
  });

  it.each([
    ['', 'signal'],
    ['signal=lat', 'signal'],
    ['signal=battery_life&from=yesterday', 'from'],
    ['signal=battery_life&to=2026-13-01T00:00:00Z', 'to'],
    ['signal=battery_life&from=2026-01-02T00:00:00Z&to=2026-01-01T00:00:00Z', 'to'],
    ['signal=battery_life&from=2020-01-01T00:00:00Z&to=2026-01-01T00:00:00Z', 'to'],
    ['signal=battery_life&from=2020-01-01T00:00:00Z', 'from'],
    ['signal=battery_life&points=9', 'points'],
    ['signal=battery_life&points=2001', 'points'],
    ['signal=battery_life&points=ten', 'points'],
    ['signal=battery_life&points=10.5', 'points'],
  ])('answers 400 naming the bad parameter: %s', async (q, name) => {
    const res = await get(site, q);
    expect(res.statusCode, res.body).toBe(400);
    const body = ErrorBodySchema.parse(res.json());
    expect(body.data.errors.join(' ')).toMatch(new RegExp(`\\b${name}\\b`));
  });

  it('is scoped like the terminal’s site: 401 without a token, 403 outside, 404 unknown or decommissioned', async () => {
    const anon = await t.app.inject({ method: 'GET', url: url('signal=battery_life') });
    expect(anon.statusCode).toBe(401);
    expect((await get(site, 'signal=battery_life', f.companySite.terminalId)).statusCode).toBe(403);
    expect((await get(agent, 'signal=battery_life', f.companySite.terminalId)).statusCode).toBe(200);
    expect((await get(agent, 'signal=battery_life', 987_654_321)).statusCode).toBe(404);
    const gone = f.otherCompanySite.terminalId;
    await t.database.query('update terminals set decommissioned_at = now() where id = $1', [gone]);
    t.app.repos.org.forget(gone);
    expect((await get(agent, 'signal=battery_life', gone)).statusCode).toBe(404);
  });
});
