import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as logRows from '@forecourt/contract/logs';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { z } from 'zod';
import { buildApp, isSpaPath } from '../src/app.ts';
import { loadEnv } from '../src/config/env.ts';
import { openTestDatabase } from './db-template.ts';
import { buildTestApp, postgresUnavailable, TEST_JWT_SECRET, type TestApp, testDbKind } from './helper.ts';

describe.skipIf(postgresUnavailable)('log rows carry the IANA zone of their site', () => {
  let t: TestApp;
  let agent: string;

  beforeAll(async () => {
    t = await buildTestApp();
    agent = await t.login('agent');
    // One site in another zone, so the zone really comes from the row's own site.
    await t.database.query(`update sites set timezone = 'America/New_York' where id = 2`);
  });
  afterAll(async () => t?.close());

  const cases: Array<[string, z.ZodType]> = [
    ['/api/agent/1/alert/log/?limit_to=1000', logRows.AlertLogEntrySchema],
    ['/api/agent/1/connectivity/log/?limit_to=1000', logRows.ConnectivityLogEntrySchema],
    ['/api/agent/1/terminal/reboot/log/?limit_to=1000', logRows.RebootLogEntrySchema],
    ['/api/agent/1/pump/activation/log/?limit_to=1000', logRows.PumpActivationLogRowSchema],
    ['/api/agent/1/shock/alert/log/?limit_to=1000', logRows.ShockLogEntrySchema],
  ];
  it.each(cases)('%s', async (url, schema) => {
    const res = await t.as(agent, { method: 'GET', url });
    expect(res.statusCode).toBe(200);
    const rows = z.array(schema).parse(res.json()) as Array<{ timezone: string; site_id?: number }>;
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) expect(row.timezone).toMatch(/^(Europe\/London|America\/New_York)$/);
    const siteOf = (r: Record<string, unknown>) =>
      (r.site_id as number | undefined) ?? (r.terminal as { site?: number } | undefined)?.site;
    const other = rows.filter((r) => siteOf(r) === 2);
    for (const row of other) expect(row.timezone).toBe('America/New_York');
    for (const row of rows.filter((r) => siteOf(r) !== 2)) expect(row.timezone).toBe('Europe/London');
  });

  it('site logs (pump status, telemetry) carry the site zone', async () => {
    for (const [url, schema] of [
      ['/api/site/2/pump/status/log/', logRows.PumpStatusLogRowSchema],
      ['/api/site/2/terminal/battery/log/', logRows.BatteryLogEntrySchema],
    ] as const) {
      const res = await t.as(agent, { method: 'GET', url });
      expect(res.statusCode).toBe(200);
      const rows = z.array(schema as z.ZodType<{ timezone: string }>).parse(res.json());
      expect(rows.length).toBeGreaterThan(0);
      expect(new Set(rows.map((r) => r.timezone))).toEqual(new Set(['America/New_York']));
    }
  });
});

describe('which paths are web app pages', () => {
  it.each([
    ['/site/3/pump/status/log', true],
    ['/agent/1/alert/log/', true],
    ['/company/1/site/2/terminal/hardware/log/', true],
    ['/profile', true],
    ['/', false],
    ['/api/user/', false],
    ['/api-token-auth/', false],
    ['/assets/index-abc.js', false],
    ['/favicon.svg', false],
  ])('%s → %s', (p, expected) => expect(isSpaPath(p)).toBe(expected));
});

describe.skipIf(postgresUnavailable)('plain paths answer the web app', () => {
  let app: Awaited<ReturnType<typeof buildApp>>;
  let close: () => Promise<void>;
  const html = '<!doctype html><html><body><div id="root"></div>forecourt-spa</body></html>';

  beforeAll(async () => {
    const webRoot = mkdtempSync(path.join(os.tmpdir(), 'forecourt-web-'));
    writeFileSync(path.join(webRoot, 'index.html'), html);
    writeFileSync(path.join(webRoot, 'favicon.svg'), '<svg/>');
    const database = await openTestDatabase(
      testDbKind,
      testDbKind === 'postgres' ? inject('postgresTemplate') : inject('pgliteTemplate'),
    );
    const config = loadEnv({
      DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'forecourt-test-')),
      SIMULATOR: 'off',
      LOG_LEVEL: 'silent',
    });
    app = await buildApp({ config, database, jwtSecret: TEST_JWT_SECRET, webRoot });
    await app.ready();
    close = async () => {
      await app.close();
      await database.close();
    };
  });
  afterAll(async () => close?.());

  const page = (url: string, accept = 'text/html,application/xhtml+xml,*/*;q=0.8') =>
    app.inject({ method: 'GET', url, headers: { accept } });

  it.each([
    '/site/3/pump/status/log',
    '/site/3/pump/status/log/',
    '/site/3/pump/activation/log/?q=pump',
    '/company/1/shock/alert/log',
    '/site/3/terminal/battery/log',
    '/company/1/site/1/terminal/hardware/log/',
    '/agent/1/terminal/reboot/log/',
    '/profile',
  ])('%s answers index.html to a browser', async (url) => {
    const res = await page(url);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/html/);
    expect(res.body).toContain('forecourt-spa');
  });

  it('never shadows the API: an unknown API path is a JSON 404, a known one answers as before', async () => {
    const unknown = await page('/api/nothing/here/');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ data: { errors: ['Not found: GET /api/nothing/here/'] } });
    const guarded = await page('/api/site/3/pump/status/log/');
    expect(guarded.statusCode).toBe(401);
    expect(guarded.headers['content-type']).toMatch(/json/);
  });

  it('a client not asking for HTML, or a missing file, still gets 404', async () => {
    const json = await page('/site/3/pump/status/log', 'application/json');
    expect(json.statusCode).toBe(404);
    const missing = await page('/assets/missing-file.js');
    expect(missing.statusCode).toBe(404);
    const file = await page('/favicon.svg', '*/*');
    expect(file.statusCode).toBe(200);
    expect(file.body).toBe('<svg/>');
  });
});
