import { AlertRulePreviewSchema } from '@forecourt/contract/alert-rules';
import { ErrorBodySchema } from '@forecourt/contract/common';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FleetSession, openFleetSession } from './fleet-fixture.ts';
import { postgresUnavailable, requestsAs } from './helper.ts';

const errorsOf = (res: { json(): unknown }) => ErrorBodySchema.parse(res.json()).data.errors.join('\n');

/**
 * `POST /api/rules/preview/` (docs/rules-and-maintenance.md "The editor's preview"): over a synthetic roll-up history
 * whose answer is worked out by hand, at hour granularity.
 */
describe.skipIf(postgresUnavailable)('rule preview over the hourly roll-ups', () => {
  let { t, f, agent, company, site, companyId } = {} as FleetSession;
  /** The start of the current hour: the preview looks at the 168 hours before it. */
  const h0 = new Date();
  h0.setUTCMinutes(0, 0, 0);
  const hoursAgo = (n: number) => new Date(h0.getTime() - n * 3_600_000);

  const { post } = requestsAs(
    () => t,
    () => agent,
  );
  const companyTarget = () => ({ scope: { kind: 'company', id: companyId }, tags: [] });
  const battery = (extra: Record<string, unknown> = {}) => ({
    target: companyTarget(),
    signal: 'battery_life',
    op: '<',
    threshold: 20,
    clear_threshold: 25,
    ...extra,
  });
  async function preview(body: Record<string, unknown>, token = agent) {
    const res = await post('/api/rules/preview/', body, token);
    expect(res.statusCode, res.body).toBe(200);
    return AlertRulePreviewSchema.parse(res.json());
  }

  beforeAll(async () => {
    ({ t, f, agent, company, site, companyId } = await openFleetSession());
    await t.database.query(
      'delete from telemetry_hourly where terminal_id in (select id from terminals where company_id = $1)',
      [companyId],
    );
    const a = f.plainTerminalId;
    const b = f.companySite.terminalId;
    // [terminal, hours ago, battery min, battery max, temperature max]
    const rows: Array<[number, number, number | null, number | null, number | null]> = [
      [a, 200, 1, 1, null], // before the 7 days: left out
      [a, 100, 15, 30, null], // breaches: alert 1 of A
      [a, 99, 22, 40, null], // holds (22 < 25): the same alert
      [a, 98, 18, 19, null], // breaches again, still the same alert
      [a, 97, 30, 35, null], // clears
      [a, 60, null, null, 20], // no battery reading: ignored for battery
      [a, 50, 10, 12, null], // breaches: alert 2 of A, a run of three hours
      [a, 49, 12, 14, null],
      [a, 48, 11, 13, null],
      [a, 47, 50, 60, null], // clears
      [a, 0, 1, 1, null], // the current hour: not rolled up yet, left out
      [b, 10, 19, 30, 70], // breaches: alert 1 of B; temperature above 60
      [b, 7, 40, 45, 20], // clears
      [b, 5, 20, 22, 20], // meets <= 20 but not < 20
    ];
    for (const [terminal, ago, min, max, temp] of rows) {
      await t.database.query(
        `insert into telemetry_hourly (terminal_id, hour, battery_life_n, battery_life_sum, battery_life_min,
           battery_life_max, temperature_main_board_n, temperature_main_board_sum, temperature_main_board_min,
           temperature_main_board_max)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
        [
          terminal,
          hoursAgo(ago).toISOString(),
          min === null ? 0 : 2,
          min === null ? null : min + (max ?? min),
          min,
          max,
          temp === null ? 0 : 1,
          temp,
          temp,
          temp,
        ],
      );
    }
  });
  afterAll(async () => t?.close());

  it('counts the terminals and alerts a rule would have fired, earliest first', async () => {
    const reached = (await post('/api/targets/preview/', { target: companyTarget(), limit_to: 0 })).json()
      .count;
    const p = await preview(battery());
    expect(p).toMatchObject({
      available: true,
      from: hoursAgo(168).toISOString(),
      to: h0.toISOString(),
      terminals: reached,
      fired: 2,
      alerts: 3,
    });
    expect(p.first.map((x) => [x.id, x.first_at, x.alerts])).toEqual([
      [f.plainTerminalId, hoursAgo(100).toISOString(), 2],
      [f.companySite.terminalId, hoursAgo(10).toISOString(), 1],
    ]);
    expect(p.first[0]).toMatchObject({ site_id: f.siteId, terminal_id: expect.any(String) });
    expect(p.first[0]!.site_title).not.toBe('');

    // limit_to bounds the list, not the counts.
    const one = await preview(battery({ limit_to: 1 }));
    expect([one.fired, one.alerts, one.first.length]).toEqual([2, 3, 1]);
  });

  it('follows the op, the clear threshold and for_s at hour granularity', async () => {
    // <= 20: B's hour at exactly 20 breaches after a clear: a second alert of B.
    expect(await preview(battery({ op: '<=' }))).toMatchObject({ fired: 2, alerts: 4 });
    // No clear threshold: A's hour at 22 clears, so its hour at 18 is a new alert.
    expect(await preview(battery({ clear_threshold: null }))).toMatchObject({ fired: 2, alerts: 4 });
    // for_s 2 h: only A's three-hour run holds that long; it fires in its second hour.
    const long = await preview(battery({ for_s: 7200 }));
    expect(long).toMatchObject({ fired: 1, alerts: 1 });
    expect(long.first[0]).toMatchObject({ id: f.plainTerminalId, first_at: hoursAgo(49).toISOString() });
    // Just over three hours: nothing held that long.
    expect(await preview(battery({ for_s: 3 * 3600 + 1 }))).toMatchObject({ fired: 0, alerts: 0, first: [] });
    // > reads the hour's maximum.
    const hot = await preview({
      target: companyTarget(),
      signal: 'temperature_main_board',
      op: '>',
      threshold: 60,
    });
    expect(hot).toMatchObject({ fired: 1, alerts: 1 });
    expect(hot.first[0]).toMatchObject({
      id: f.companySite.terminalId,
      first_at: hoursAgo(10).toISOString(),
    });
    // A terminal target sees only its terminal.
    const justA = await preview(
      battery({ target: { scope: { kind: 'terminal', id: f.plainTerminalId }, tags: [] } }),
    );
    expect(justA).toMatchObject({ terminals: 1, fired: 1, alerts: 2 });
  });

  it('says no_sales is not previewed; writes nothing', async () => {
    const [{ n: audits }] = await t.database.query<{ n: string | number }>(
      'select count(*) as n from audit_log',
    );
    const p = await preview({ target: companyTarget(), signal: 'no_sales', threshold: 2, for_s: 3600 });
    expect(p).toMatchObject({ available: false, fired: 0, alerts: 0, first: [] });
    expect(p.terminals).toBeGreaterThan(0);
    await preview(battery({ name: 'Unsaved', severity: 'minor', enabled: false }));
    const [{ n: after }] = await t.database.query<{ n: string | number }>(
      'select count(*) as n from audit_log',
    );
    expect(Number(after)).toBe(Number(audits));
  });

  it('answers 400 naming every bad field', async () => {
    const res = await post('/api/rules/preview/', {
      target: companyTarget(),
      signal: 'battery_life',
      threshold: 'low',
      for_s: -1,
      limit_to: 1000,
    });
    expect(res.statusCode).toBe(400);
    const text = errorsOf(res);
    for (const field of ['threshold', 'for_s', 'limit_to']) expect(text).toContain(field);
    const noOp = await post('/api/rules/preview/', battery({ op: undefined }));
    expect(noOp.statusCode).toBe(400);
    expect(errorsOf(noOp)).toContain('op');
    const wrongSide = await post('/api/rules/preview/', battery({ clear_threshold: 10 }));
    expect(wrongSide.statusCode).toBe(400);
    expect(errorsOf(wrongSide)).toContain('clear_threshold');
    const unknown = await post('/api/rules/preview/', battery({ signal: 'voltage' }));
    expect(unknown.statusCode).toBe(400);
    expect(errorsOf(unknown)).toContain('signal');
  });

  it('answers 403 for a target outside the caller’s scope, and to site users', async () => {
    const other = battery({ target: { scope: { kind: 'site', id: f.otherCompanySite.siteId }, tags: [] } });
    expect((await post('/api/rules/preview/', other, company)).statusCode).toBe(403);
    const outsider = battery({ target: { scope: { kind: 'site', id: f.outsider.siteId }, tags: [] } });
    expect((await post('/api/rules/preview/', outsider)).statusCode).toBe(403);
    expect((await post('/api/rules/preview/', battery(), site)).statusCode).toBe(403);
    expect((await post('/api/rules/preview/', battery(), company)).statusCode).toBe(200);
  });
});
