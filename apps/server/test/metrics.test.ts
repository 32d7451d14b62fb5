import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DeviceTokenResponseSchema } from '@forecourt/contract/terminals';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FleetFixture, fleetFixture, settleCommands } from './fleet-fixture.ts';
import { buildTestApp, postgresUnavailable, type TestApp } from './helper.ts';

const TOKEN = 'metrics-token-for-the-tests-0123456789';
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** Prometheus text exposition format (version 0.0.4): `name{label="value",...} number` per sample line. */
function parseExposition(text: string): { samples: Sample[]; types: Map<string, string> } {
  const samples: Sample[] = [];
  const types = new Map<string, string>();
  for (const line of text.split('\n')) {
    if (line.startsWith('# TYPE ')) {
      const [name, type] = line.slice(7).split(' ');
      types.set(name, type);
      continue;
    }
    if (!line || line.startsWith('#')) continue;
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)(?: \d+)?$/.exec(line);
    if (!m) throw new Error(`not a sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const l of (m[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) {
      labels[l[1]] = l[2].replace(/\\(.)/g, (_, c) => (c === 'n' ? '\n' : c));
    }
    const value =
      m[3] === '+Inf'
        ? Infinity
        : m[3] === '-Inf'
          ? -Infinity
          : /^nan$/i.test(m[3])
            ? Number.NaN
            : Number(m[3]);
    if (Number.isNaN(value) && !/^nan$/i.test(m[3])) throw new Error(`not a number: ${line}`);
    samples.push({ name: m[1], labels, value });
  }
  return { samples, types };
}

/** The value of the one sample of `name` whose labels include `labels` (0 when there is none yet). */
function sampleValue(samples: Sample[], name: string, labels: Record<string, string> = {}): number {
  const found = samples.filter(
    (s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v),
  );
  if (found.length > 1) throw new Error(`${name} ${JSON.stringify(labels)} matches ${found.length} samples`);
  return found[0]?.value ?? 0;
}

describe.skipIf(postgresUnavailable)('GET /metrics without METRICS_TOKEN', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(async () => t?.close());

  it('is not there: 404 with the usual error body, even with a bearer token', async () => {
    for (const headers of [{}, { authorization: `Bearer ${TOKEN}` }, { accept: 'text/html' }]) {
      const res = await t.app.inject({ method: 'GET', url: '/metrics', headers });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ data: { errors: ['Not found: GET /metrics'] } });
    }
  });
});

describe.skipIf(postgresUnavailable)('GET /metrics with METRICS_TOKEN', () => {
  let t: TestApp;
  let f: FleetFixture;
  let agent: string;
  const scrape = async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    return parseExposition(res.body);
  };

  beforeAll(async () => {
    t = await buildTestApp({ METRICS_TOKEN: TOKEN });
    f = await fleetFixture(t.database);
    await settleCommands(t.database);
    agent = await t.login('agent');
  });
  afterAll(async () => t?.close());

  it('answers 401 to a missing, wrong or non-bearer credential', async () => {
    for (const authorization of [
      undefined,
      'Bearer wrong-token',
      `Bearer ${TOKEN}x`,
      `Bearer ${TOKEN.slice(0, -1)}`,
      `Basic ${Buffer.from(`x:${TOKEN}`).toString('base64')}`,
      TOKEN,
      `JWT ${TOKEN}`,
    ]) {
      const res = await t.app.inject({
        method: 'GET',
        url: '/metrics',
        headers: authorization ? { authorization } : {},
      });
      expect(res.statusCode, String(authorization)).toBe(401);
      expect(res.headers['www-authenticate']).toBe('Bearer');
      expect(res.body).not.toContain('http_requests_total');
    }
  });

  it('counts requests by route pattern and status, with a duration histogram', async () => {
    const before = (await scrape()).samples;
    const siteId = f.siteId;
    for (let i = 0; i < 3; i++) {
      const res = await t.as(agent, { method: 'GET', url: `/api/site/${siteId}/terminals/` });
      expect(res.statusCode).toBe(200);
    }
    expect((await t.app.inject({ method: 'GET', url: '/api/does-not-exist' })).statusCode).toBe(404);
    const { samples, types } = await scrape();
    expect(types.get('http_requests_total')).toBe('counter');
    expect(types.get('http_request_duration_seconds')).toBe('histogram');
    const route = { method: 'GET', route: '/api/site/:id/terminals/', status: '200' };
    const routeSample = samples.find(
      (s) =>
        s.name === 'http_requests_total' &&
        s.labels.route?.includes('/terminals') &&
        s.labels.method === 'GET',
    );
    // The route pattern, never the raw URL with its id.
    expect(routeSample?.labels.route).toMatch(/^\/api\/site\/:[a-zA-Z]+\/terminals\/?$/);
    route.route = routeSample!.labels.route;
    expect(
      sampleValue(samples, 'http_requests_total', route) - sampleValue(before, 'http_requests_total', route),
    ).toBe(3);
    expect(samples.some((s) => s.labels.route?.includes(`/site/${siteId}/`))).toBe(false);
    expect(
      sampleValue(samples, 'http_request_duration_seconds_count', route) -
        sampleValue(before, 'http_request_duration_seconds_count', route),
    ).toBe(3);
    expect(sampleValue(samples, 'http_request_duration_seconds_bucket', { ...route, le: '+Inf' })).toBe(
      sampleValue(samples, 'http_request_duration_seconds_count', route),
    );
    expect(sampleValue(samples, 'http_request_duration_seconds_sum', route)).toBeGreaterThan(0);
    expect(
      sampleValue(samples, 'http_requests_total', { method: 'GET', route: '(unmatched)', status: '404' }),
    ).toBeGreaterThanOrEqual(1);
  });

  it('counts device writes by kind and the commands queued in the database', async () => {
    const provisioned = await t.as(agent, {
      method: 'POST',
      url: `/api/terminal/${f.plainTerminalId}/device-token/`,
    });
    const token = DeviceTokenResponseSchema.parse(provisioned.json()).token;
    const before = (await scrape()).samples;
    const write = await t.app.inject({
      method: 'POST',
      url: '/api/device/v1/telemetry',
      headers: { authorization: `Device ${token}` },
      payload: [
        { battery_life: 80, temperature_main_board: 20 },
        { battery_life: 79, temperature_main_board: 21 },
      ],
    });
    expect(write.statusCode, write.body).toBe(202);
    const reboot = await t.as(agent, {
      method: 'POST',
      url: `/api/terminal/${f.plainTerminalId}/reboot/`,
      payload: { reboot_type: 'full' },
    });
    expect(reboot.statusCode).toBe(202);
    const after = (await scrape()).samples;
    const telemetry = { kind: 'telemetry' };
    expect(
      sampleValue(after, 'forecourt_device_writes_total', telemetry) -
        sampleValue(before, 'forecourt_device_writes_total', telemetry),
    ).toBe(2);
    expect(
      sampleValue(after, 'forecourt_commands_queued') - sampleValue(before, 'forecourt_commands_queued'),
    ).toBe(1);
    const [queued] = await t.database.query<{ n: number }>(
      `select count(*)::int as n from commands where state = 'queued'`,
    );
    expect(sampleValue(after, 'forecourt_commands_queued')).toBe(queued.n);
  });

  it('reports live streams, the change feed, the leader, the mail queue and the process', async () => {
    await t.app.feed.ready;
    t.app.metrics.leaderFrom(() => true);
    const { samples, types } = await scrape();
    expect(sampleValue(samples, 'forecourt_leader')).toBe(1);
    expect(sampleValue(samples, 'forecourt_live_streams')).toBe(0);
    const lag = sampleValue(samples, 'forecourt_change_feed_lag_seconds');
    expect(lag).toBeGreaterThanOrEqual(0);
    expect(lag).toBeLessThan(10);
    const [mails] = await t.database.query<{ n: number }>(
      'select count(*)::int as n from alert_mails where sent_at is null',
    );
    expect(sampleValue(samples, 'forecourt_deliveries_pending')).toBe(mails.n);
    expect(types.get('forecourt_database_errors_total')).toBe('counter');
    expect(sampleValue(samples, 'process_resident_memory_bytes')).toBeGreaterThan(10_000_000);
    expect(samples.some((s) => s.name === 'nodejs_eventloop_lag_p99_seconds')).toBe(true);
    t.app.metrics.leaderFrom(() => false);
    expect(sampleValue((await scrape()).samples, 'forecourt_leader')).toBe(0);
  });

  it('docs/grafana-dashboard.json is a dashboard whose every query names metrics this server exposes', async () => {
    const dashboard = JSON.parse(readFileSync(path.join(root, 'docs/grafana-dashboard.json'), 'utf8'));
    const { samples, types } = await scrape();
    const exposed = new Set([...samples.map((s) => s.name), ...types.keys()]);
    const panels = dashboard.panels as Array<{ title: string; targets: Array<{ expr: string }> }>;
    expect(panels.length).toBeGreaterThanOrEqual(7);
    const titles = panels.map((p) => p.title.toLowerCase()).join(' | ');
    for (const topic of [
      'request rate',
      'p95',
      'live streams',
      'feed lag',
      'device writes',
      'memory',
      'event loop',
    ]) {
      expect(titles).toContain(topic);
    }
    const promql = new Set([
      'sum',
      'by',
      'rate',
      'max',
      'histogram_quantile',
      'le',
      'route',
      'kind',
      'instance',
      'status',
    ]);
    for (const panel of panels) {
      expect(panel.targets.length, panel.title).toBeGreaterThan(0);
      for (const { expr } of panel.targets) {
        const names = [...expr.replace(/"[^"]*"/g, '').matchAll(/[a-z_][a-z0-9_]*/g)]
          .map((m) => m[0])
          .filter((n) => !promql.has(n) && n.includes('_'));
        expect(names.length, expr).toBeGreaterThan(0);
        for (const name of names) expect(exposed.has(name), `${panel.title}: ${name}`).toBe(true);
      }
    }
  });
});
