import * as logRows from '@forecourt/contract/logs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { buildTestApp, postgresUnavailable, type TestApp } from './helper.ts';

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
