import { AuditEntrySchema } from '@forecourt/contract/admin';
import { ErrorBodySchema } from '@forecourt/contract/common';
import { AlertSchema } from '@forecourt/contract/fleet';
import { MaintenanceWindowSchema } from '@forecourt/contract/maintenance';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { deviceCall, type FleetSession, openFleetSession, provisionDevice } from './fleet-fixture.ts';
import { postgresUnavailable, requestsAs } from './helper.ts';

const errorsOf = (res: { json(): unknown }) => ErrorBodySchema.parse(res.json()).data.errors;
const Windows = z.array(MaintenanceWindowSchema);
const Alerts = z.array(AlertSchema);

/** The ISO weekday (Monday = 1) and 'HH:MM' of an instant in a zone. */
function localOf(at: Date, timeZone: string) {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-GB', {
      timeZone,
      weekday: 'short',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    })
      .formatToParts(at)
      .map((p) => [p.type, p.value]),
  );
  const weekday = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'].indexOf(parts.weekday!) + 1;
  return { weekday, start: `${parts.hour}:${parts.minute}` };
}

describe.skipIf(postgresUnavailable)('maintenance windows (docs/rules-and-maintenance.md)', () => {
  let { t, f, agent, company, site, agentId } = {} as FleetSession;
  let device: string;

  const { as, post, patch, get, del } = requestsAs(
    () => t,
    () => agent,
  );
  const siteTarget = (id: number) => ({ scope: { kind: 'site', id }, tags: [] });
  const terminalTarget = (id: number) => ({ scope: { kind: 'terminal', id }, tags: [] });
  const inS = (s: number) => new Date(Date.now() + s * 1000).toISOString();

  async function createWindow(body: Record<string, unknown>, token = agent) {
    const res = await post('/api/maintenance/', body, token);
    expect(res.statusCode, res.body).toBe(201);
    return MaintenanceWindowSchema.parse(res.json());
  }
  /** The bell of the site user's site: active, unacknowledged, not silenced. */
  const bell = async () =>
    (await get(`/api/alerts/site/${f.siteId}/count/?state=active&acknowledged=false`, site)).json()
      .count as number;
  const siteAlerts = async (query = '') => {
    const res = await get(`/api/alerts/site/${f.siteId}/?limit_to=1000${query}`, site);
    expect(res.statusCode, res.body).toBe(200);
    return Alerts.parse(res.json());
  };
  const mailsOf = async (alertId: number) =>
    (await t.database.query('select 1 from alert_mails where alert_id = $1', [alertId])).length;
  /** Ends every window, so that a test starts with none in force. */
  const endAll = () => t.database.query('update maintenance_windows set ends_at = least(ends_at, now())');

  beforeAll(async () => {
    ({ t, f, agent, company, site, agentId } = await openFleetSession());
    device = await provisionDevice(t, agent, f.plainTerminalId);
    // The terminal's first call brings it online (clearing any offline alert): the bell counts from here.
    expect((await deviceCall(t, device, 'GET', 'me')).statusCode).toBe(200);
    // The site user wants every alert by mail: a silenced one must still send none.
    const res = await as(site, {
      method: 'PUT',
      url: '/api/user/notifications/',
      payload: { email_min_severity: 'info' },
    });
    expect(res.statusCode, res.body).toBe(200);
  });
  afterAll(async () => t?.close());

  it('every role declares windows inside its scope and reads those reaching it; 403 outside, 404 unknown', async () => {
    await endAll();
    expect((await as('', { method: 'GET', url: '/api/maintenance/' })).statusCode).toBe(401);
    const mine = await createWindow(
      { target: siteTarget(f.siteId), starts_at: inS(0), ends_at: inS(3600), reason: 'Pump calibration' },
      site,
    );
    expect(mine).toMatchObject({
      target: { scope: { kind: 'site', id: f.siteId }, tags: [] },
      recurrence: null,
      reason: 'Pump calibration',
      created_by: 'site',
      active: true,
    });
    const companyWide = await createWindow(
      { target: siteTarget(f.companySite.siteId), starts_at: inS(600), ends_at: inS(3600) },
      company,
    );
    expect(companyWide.active).toBe(false);
    expect(
      (
        await post(
          '/api/maintenance/',
          { target: siteTarget(f.companySite.siteId), starts_at: inS(0), ends_at: inS(60) },
          site,
        )
      ).statusCode,
    ).toBe(403);
    expect(
      (
        await post('/api/maintenance/', {
          target: siteTarget(f.outsider.siteId),
          starts_at: inS(0),
          ends_at: inS(60),
        })
      ).statusCode,
    ).toBe(403);
    const siteSees = Windows.parse((await get('/api/maintenance/', site)).json()).map((w) => w.id);
    expect(siteSees).toContain(mine.id);
    expect(siteSees).not.toContain(companyWide.id);
    expect((await get(`/api/maintenance/${companyWide.id}/`, site)).statusCode).toBe(403);
    expect((await patch(`/api/maintenance/${companyWide.id}/`, { reason: 'x' }, site)).statusCode).toBe(403);
    expect((await del(`/api/maintenance/${companyWide.id}/`, site)).statusCode).toBe(403);
    expect((await get(`/api/maintenance/${mine.id}/`, company)).statusCode).toBe(200);
    expect((await get('/api/maintenance/999999/')).statusCode).toBe(404);
    expect((await get('/api/maintenance/abc/')).statusCode).toBe(404);
    const active = Windows.parse((await get('/api/maintenance/?active=true')).json()).map((w) => w.id);
    expect(active).toContain(mine.id);
    expect(active).not.toContain(companyWide.id);
    const inactive = Windows.parse((await get('/api/maintenance/?active=false')).json()).map((w) => w.id);
    expect(inactive).toContain(companyWide.id);
    expect(inactive).not.toContain(mine.id);
    const changed = await patch(`/api/maintenance/${mine.id}/`, { reason: 'Calibration and filters' }, site);
    expect(changed.statusCode, changed.body).toBe(200);
    expect(MaintenanceWindowSchema.parse(changed.json()).reason).toBe('Calibration and filters');
  });

  it('answers 400 for a retroactive window and names every bad field', async () => {
    const late = await post('/api/maintenance/', {
      target: siteTarget(f.siteId),
      starts_at: inS(-120),
      ends_at: inS(600),
    });
    expect(late.statusCode).toBe(400);
    expect(errorsOf(late).join()).toContain('starts_at');
    // Within a minute is fine: the form took a moment to send.
    expect(
      (
        await post('/api/maintenance/', {
          target: siteTarget(f.siteId),
          starts_at: inS(-30),
          ends_at: inS(1),
        })
      ).statusCode,
    ).toBe(201);
    const bad = await post('/api/maintenance/', {
      target: { scope: { kind: 'site' } },
      starts_at: 'tomorrow',
      ends_at: 5,
      recurrence: { weekdays: [0, 8], start: '25:00', duration_min: 0 },
      reason: 'x'.repeat(501),
    });
    expect(bad.statusCode).toBe(400);
    const text = errorsOf(bad).join('\n');
    for (const field of [
      'target.scope.id',
      'starts_at',
      'ends_at',
      'recurrence.weekdays',
      'recurrence.start',
      'recurrence.duration_min',
      'reason',
    ])
      expect(text, field).toContain(field);
    const backwards = await post('/api/maintenance/', {
      target: siteTarget(f.siteId),
      starts_at: inS(600),
      ends_at: inS(60),
    });
    expect(errorsOf(backwards)).toEqual(['ends_at must be after starts_at']);
  });

  it('silences alerts raised in it: flagged, no mail, not counted by the bell; ending it notifies what is still active', async () => {
    await endAll();
    const before = await bell();
    const window = await createWindow({
      target: terminalTarget(f.plainTerminalId),
      starts_at: inS(0),
      ends_at: inS(3600),
      reason: 'Printer swap',
    });
    const res = await deviceCall(t, device, 'POST', 'events', [
      { event_type: 2, text: 'Printer failure: paper jam' },
      { event_type: 1, text: 'Card reader failure: chip read error' },
    ]);
    expect(res.statusCode).toBe(202);
    const raised = (await siteAlerts('&silenced=true')).filter((a) => a.maintenance_id === window.id);
    expect(raised.map((a) => a.event_type).sort()).toEqual([1, 2]);
    for (const a of raised) {
      expect(a).toMatchObject({ silenced: true, maintenance_id: window.id, state: 'active' });
      expect(await mailsOf(a.id)).toBe(0);
    }
    expect(await bell()).toBe(before);
    const notSilenced = (await siteAlerts('&silenced=false')).map((a) => a.id);
    expect(notSilenced).not.toContain(raised[0]!.id);
    // Logs list them too, flagged.
    const log = await get(`/api/site/${f.siteId}/alert/log/?silenced=true`, site);
    expect(log.statusCode, log.body).toBe(200);
    expect(Alerts.parse(log.json()).map((a) => a.id)).toContain(raised[0]!.id);
    const csv = await get(`/api/site/${f.siteId}/alert/log/?silenced=true&format=csv`, site);
    expect(csv.body.split('\n')[0]).toContain('silenced');
    // The printer is fixed during the window: that one clears and is never notified.
    await deviceCall(t, device, 'POST', 'events', { event_type: 2, clear: true });
    const ended = await del(`/api/maintenance/${window.id}/`);
    expect(ended.statusCode, ended.body).toBe(200);
    const w = MaintenanceWindowSchema.parse(ended.json());
    expect(w.active).toBe(false);
    expect(Math.abs(Date.parse(w.ends_at) - Date.now())).toBeLessThan(60_000);
    expect(
      Windows.parse((await get('/api/maintenance/')).json()).find((x) => x.id === window.id)?.ends_at,
    ).toBe(w.ends_at);
    const reader = raised.find((a) => a.event_type === 1)!;
    const printer = raised.find((a) => a.event_type === 2)!;
    const after = await siteAlerts();
    expect(after.find((a) => a.id === reader.id)).toMatchObject({
      silenced: false,
      maintenance_id: window.id,
    });
    expect(after.find((a) => a.id === printer.id)).toMatchObject({ silenced: true, state: 'cleared' });
    expect(await mailsOf(reader.id)).toBeGreaterThan(0);
    expect(await mailsOf(printer.id)).toBe(0);
    expect(await bell()).toBe(before + 1);
    // Ending it again changes nothing; a window that has ended cannot be changed.
    expect((await del(`/api/maintenance/${window.id}/`)).statusCode).toBe(200);
    expect((await patch(`/api/maintenance/${window.id}/`, { reason: 'x' })).statusCode).toBe(409);
    const audit = z
      .array(AuditEntrySchema)
      .parse((await get(`/api/admin/audit/?entity=maintenance_window&entity_id=${window.id}`)).json());
    expect(audit.map((e) => e.action)).toEqual(['end', 'create']);
  });

  it('an alert rule firing in a window is silenced; the sweep notifies it when the window runs out', async () => {
    await endAll();
    const window = await createWindow({ target: siteTarget(f.siteId), starts_at: inS(0), ends_at: inS(2) });
    const rule = await post('/api/rules/', {
      name: 'Battery low',
      target: terminalTarget(f.plainTerminalId),
      signal: 'battery_life',
      op: '<',
      threshold: 20,
    });
    expect(rule.statusCode, rule.body).toBe(201);
    await deviceCall(t, device, 'POST', 'telemetry', { battery_life: 4 });
    const alert = (await siteAlerts('&event_type=100')).find((a) => a.rule_id === rule.json().id)!;
    expect(alert).toMatchObject({ silenced: true, maintenance_id: window.id });
    expect(await mailsOf(alert.id)).toBe(0);
    await new Promise((r) => setTimeout(r, 2_100));
    const swept = await t.app.rules.sweep(new Date());
    expect(swept.released).toBeGreaterThanOrEqual(1);
    expect((await siteAlerts('&event_type=100')).find((a) => a.id === alert.id)?.silenced).toBe(false);
    expect(await mailsOf(alert.id)).toBeGreaterThan(0);
    await as(agent, { method: 'DELETE', url: `/api/rules/${rule.json().id}/` });
  });

  describe('weekly windows in each site’s own time zone', () => {
    let london: number;
    let newYork: number;
    beforeAll(async () => {
      london = f.plainTerminalId;
      newYork = f.companySite.terminalId;
      await t.database.query(`update sites set timezone = 'Europe/London' where id = $1`, [f.siteId]);
      await t.database.query(`update sites set timezone = 'America/New_York' where id = $1`, [
        f.companySite.siteId,
      ]);
    });
    const covers = (id: number, terminal: number, at: string) =>
      t.app.repos.maintenance.covers(id, terminal, new Date(at));

    it('every Sunday 02:00 for 120 min, local at each site, across the spring DST change', async () => {
      const w = await createWindow({
        target: { scope: { kind: 'agent', id: agentId }, tags: [] },
        starts_at: '2027-03-01T00:00:00Z',
        ends_at: '2027-04-30T00:00:00Z',
        recurrence: { weekdays: [7], start: '02:00', duration_min: 120 },
        reason: 'Weekly software window',
      });
      expect(w.recurrence).toEqual({ weekdays: [7], start: '02:00', duration_min: 120 });
      const cases: Array<[number, string, boolean]> = [
        // London, winter (GMT): 02:00–04:00 UTC.
        [london, '2027-03-21T01:59:00Z', false],
        [london, '2027-03-21T02:00:00Z', true],
        [london, '2027-03-21T03:59:00Z', true],
        [london, '2027-03-21T04:00:00Z', false],
        // The night the clocks go forward (01:00 UTC): 02:00 BST is 01:00 UTC, for 120 real minutes.
        [london, '2027-03-28T00:59:00Z', false],
        [london, '2027-03-28T01:00:00Z', true],
        [london, '2027-03-28T02:59:00Z', true],
        [london, '2027-03-28T03:00:00Z', false],
        // Summer time: 01:00–03:00 UTC.
        [london, '2027-04-04T01:30:00Z', true],
        [london, '2027-04-04T03:30:00Z', false],
        // Not on a Saturday; not after ends_at.
        [london, '2027-03-27T02:30:00Z', false],
        [london, '2027-05-02T01:30:00Z', false],
        // New York, EST: 07:00–09:00 UTC.
        [newYork, '2027-03-07T07:00:00Z', true],
        [newYork, '2027-03-07T08:59:00Z', true],
        [newYork, '2027-03-07T09:00:00Z', false],
        [newYork, '2027-03-21T02:30:00Z', false],
        // 02:00 does not exist on 14 March (02:00 EST → 03:00 EDT): it begins when the clocks jump, 07:00 UTC.
        [newYork, '2027-03-14T06:59:00Z', false],
        [newYork, '2027-03-14T07:00:00Z', true],
        [newYork, '2027-03-14T08:59:00Z', true],
        [newYork, '2027-03-14T09:00:00Z', false],
        // EDT: 06:00–08:00 UTC.
        [newYork, '2027-03-21T06:00:00Z', true],
        [newYork, '2027-03-21T08:00:00Z', false],
      ];
      for (const [terminal, at, expected] of cases)
        expect(await covers(w.id, terminal, at), `${terminal === london ? 'London' : 'New York'} ${at}`).toBe(
          expected,
        );
    });

    it('a weekly window may cross midnight into the next day', async () => {
      const w = await createWindow({
        target: { scope: { kind: 'site', id: f.siteId }, tags: [] },
        starts_at: '2027-01-01T00:00:00Z',
        ends_at: '2027-02-01T00:00:00Z',
        recurrence: { weekdays: [6], start: '23:00', duration_min: 180 },
      });
      // Saturday 9 January 2027, 23:00 → Sunday 02:00 (GMT).
      expect(await covers(w.id, london, '2027-01-09T22:59:00Z')).toBe(false);
      expect(await covers(w.id, london, '2027-01-09T23:30:00Z')).toBe(true);
      expect(await covers(w.id, london, '2027-01-10T01:30:00Z')).toBe(true);
      expect(await covers(w.id, london, '2027-01-10T02:00:00Z')).toBe(false);
      // Friday night is not covered; nor is a terminal outside the target.
      expect(await covers(w.id, london, '2027-01-08T23:30:00Z')).toBe(false);
      expect(await covers(w.id, newYork, '2027-01-10T04:30:00Z')).toBe(false);
    });

    it('?active=true lists a weekly window while an occurrence is under way, not between them', async () => {
      await endAll();
      const now = localOf(new Date(Date.now() - 10 * 60_000), 'Europe/London');
      const running = await createWindow({
        target: siteTarget(f.siteId),
        starts_at: inS(0),
        ends_at: inS(30 * 86_400),
        recurrence: { weekdays: [now.weekday], start: now.start, duration_min: 60 },
      });
      const tomorrow = ((now.weekday % 7) + 1) as number;
      const later = await createWindow({
        target: siteTarget(f.siteId),
        starts_at: inS(0),
        ends_at: inS(30 * 86_400),
        recurrence: { weekdays: [tomorrow], start: now.start, duration_min: 60 },
      });
      expect(running.active).toBe(true);
      expect(later.active).toBe(false);
      const active = Windows.parse((await get('/api/maintenance/?active=true', site)).json()).map(
        (x) => x.id,
      );
      expect(active).toContain(running.id);
      expect(active).not.toContain(later.id);
      await endAll();
    });
  });
});
