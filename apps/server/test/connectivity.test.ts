import { DeviceTokenResponseSchema } from '@forecourt/contract/terminals';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FleetFixture, fleetFixture } from './fleet-fixture.ts';
import { buildTestApp, postgresUnavailable, type TestApp } from './helper.ts';

describe.skipIf(postgresUnavailable)('heartbeats and the connectivity watchdog', () => {
  let t: TestApp;
  let f: FleetFixture;
  let token: string;
  let tid: number;
  let terminalNo: string;
  let siteTitle: string;

  const terminal = async (id: number) =>
    (
      await t.database.query<{ connectivity: string; last_seen_at: Date | string | null }>(
        'select connectivity, last_seen_at from terminals where id = $1',
        [id],
      )
    )[0];
  const alertsOf = async (id: number, type: number) =>
    t.database.query<{ text: string; company_id: number; state: string; cleared_at: unknown }>(
      'select text, company_id, state, cleared_at from alerts where terminal_id = $1 and event_type = $2 order by id',
      [id, type],
    );
  const eventsOf = async (id: number) =>
    (
      await t.database.query<{ status: string }>(
        'select status from connectivity_events where terminal_id = $1 order by id',
        [id],
      )
    ).map((r) => r.status);
  const call = () =>
    t.app.inject({ method: 'GET', url: '/api/device/v1/me', headers: { authorization: `Device ${token}` } });

  beforeAll(async () => {
    t = await buildTestApp({ CONNECTIVITY_TIMEOUT: '60' });
    f = await fleetFixture(t.database);
    tid = f.plainTerminalId;
    const [row] = await t.database.query<{ terminal_no: string; title: string }>(
      'select t.terminal_no, s.title from terminals t join sites s on s.id = t.site_id where t.id = $1',
      [tid],
    );
    terminalNo = row.terminal_no;
    siteTitle = row.title;
    // A terminal never heard from: 'unknown', no connectivity history.
    await t.database.query(
      `update terminals set connectivity = 'unknown', last_seen_at = null where id = $1`,
      [tid],
    );
    await t.database.query('delete from connectivity_events where terminal_id = $1', [tid]);
    await t.database.query('delete from alerts where terminal_id = $1 and event_type in (3, 4)', [tid]);
    const agent = await t.login('agent');
    token = DeviceTokenResponseSchema.parse(
      (await t.as(agent, { method: 'POST', url: `/api/terminal/${tid}/device-token/` })).json(),
    ).token;
  });
  afterAll(async () => t?.close());

  it('an unknown terminal comes online on its first call, with one event and no alert', async () => {
    expect((await terminal(tid)).connectivity).toBe('unknown');
    const calls = await Promise.all(Array.from({ length: 5 }, call));
    expect(calls.every((r) => r.statusCode === 200)).toBe(true);
    expect((await terminal(tid)).connectivity).toBe('on');
    expect(await eventsOf(tid)).toEqual(['on']);
    // Coming back clears the offline alert (docs/product.md#alert-lifecycle): no 'Terminal online' alert.
    expect(await alertsOf(tid, 4)).toHaveLength(0);
  });

  it('writes coalesced heartbeats on flush', async () => {
    await t.database.query('update terminals set last_seen_at = null where id = $1', [tid]);
    await call();
    await call();
    await t.app.heartbeats.flush();
    const seen = (await terminal(tid)).last_seen_at;
    expect(seen).not.toBeNull();
    expect(Math.abs(new Date(seen!).getTime() - Date.now())).toBeLessThan(60_000);
  });

  it('marks a silent terminal off after the timeout with an alert, cleared when it calls again', async () => {
    await call();
    // Not silent long enough yet.
    const soon = await t.app.heartbeats.sweep(new Date(Date.now() + 30_000));
    expect(soon).not.toContain(tid);
    expect((await terminal(tid)).connectivity).toBe('on');

    const gone = await t.app.heartbeats.sweep(new Date(Date.now() + 61_000));
    expect(gone).toContain(tid);
    expect((await terminal(tid)).connectivity).toBe('off');
    expect(await eventsOf(tid)).toEqual(['on', 'off']);
    const offline = await alertsOf(tid, 3);
    expect(offline).toHaveLength(1);
    expect(offline[0].state).toBe('active');
    expect(offline[0].text).toMatch(
      `Terminal offline: terminal ${terminalNo} at ${siteTitle} has not reported since`,
    );

    // A second pass does not repeat it.
    expect(await t.app.heartbeats.sweep(new Date(Date.now() + 120_000))).not.toContain(tid);
    expect(await alertsOf(tid, 3)).toHaveLength(1);

    expect((await call()).statusCode).toBe(200);
    expect((await terminal(tid)).connectivity).toBe('on');
    expect(await eventsOf(tid)).toEqual(['on', 'off', 'on']);
    const after = await alertsOf(tid, 3);
    expect(after).toHaveLength(1);
    expect(after[0].state).toBe('cleared');
    expect(after[0].cleared_at).not.toBeNull();
    expect(await alertsOf(tid, 4)).toHaveLength(0);
  });

  it('does not declare terminals silent within one timeout of the server starting', async () => {
    const fresh = await buildTestApp({ CONNECTIVITY_TIMEOUT: '60' });
    try {
      await fresh.database.query(
        `update terminals set connectivity = 'on', last_seen_at = now() - interval '1 day' where id = $1`,
        [f.controllerId],
      );
      expect(await fresh.app.heartbeats.sweep(new Date())).toEqual([]);
      expect(await fresh.app.heartbeats.sweep(new Date(Date.now() + 61_000))).toContain(f.controllerId);
    } finally {
      await fresh.close();
    }
  });
});
