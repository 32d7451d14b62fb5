import { ErrorBodySchema } from '@forecourt/contract/common';
import { SEVERITIES, severityOf, severityRank } from '@forecourt/contract/events';
import { AlertSchema, AlertSiteSchema } from '@forecourt/contract/fleet';
import { logApiPath } from '@forecourt/contract/log-paths';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { deviceCall, type FleetSession, openFleetSession, provisionDevice } from './fleet-fixture.ts';
import { postgresUnavailable } from './helper.ts';

const Alerts = z.array(AlertSchema);
const Sites = z.array(AlertSiteSchema);

describe.skipIf(postgresUnavailable)('alert lifecycle (docs/product.md#alert-lifecycle)', () => {
  let { t, f, agent, company, site, agentId, companyId } = {} as FleetSession;

  const get = async (token: string, url: string) => t.as(token, { method: 'GET', url });
  const list = async (token: string, url: string) => {
    const res = await get(token, url);
    expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
    return Alerts.parse(res.json());
  };
  const ack = (token: string, id: number | string, payload?: unknown) =>
    t.as(token, {
      method: 'POST',
      url: `/api/alerts/${id}/ack/`,
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
  const device = (token: string, payload: unknown) => deviceCall(t, token, 'POST', 'events', payload);
  const provision = (terminalId: number) => provisionDevice(t, agent, terminalId);
  /** The newest alert of a site, by state. */
  const alertAt = async (siteId: number, state: 'active' | 'cleared') => {
    const rows = await t.database.query<{ id: number | string }>(
      'select id from alerts where site_id = $1 and state = $2 order by id desc limit 1',
      [siteId, state],
    );
    return Number(rows[0]!.id);
  };

  beforeAll(async () => {
    ({ t, f, agent, company, site, agentId, companyId } = await openFleetSession());
  });
  afterAll(async () => t?.close());

  it('the demo alerts carry the new shape: severity from the catalogue, no "Terminal online" pairs', async () => {
    const rows = await list(agent, `/api/alerts/agent/${agentId}/?limit_to=1000`);
    expect(rows.length).toBeGreaterThan(100);
    for (const a of rows) {
      expect(a.severity).toBe(severityOf(a.event_type));
      expect(a.event_type).not.toBe(4);
      expect(a.state === 'cleared').toBe(a.cleared_at !== null);
    }
    const offline = rows.filter((a) => a.event_type === 3);
    expect(offline.some((a) => a.state === 'cleared')).toBe(true);
    expect(rows.some((a) => a.state === 'active')).toBe(true);
  });

  describe('acknowledge', () => {
    it('answers 200 with the alert, who, when and the note; again keeps the first', async () => {
      const id = await alertAt(f.siteId, 'active');
      const first = await ack(site, id, { note: 'Engineer on the way' });
      expect(first.statusCode, first.body).toBe(200);
      const a = AlertSchema.parse(first.json());
      expect(a).toMatchObject({ id, acknowledged_by: 'site', note: 'Engineer on the way', state: 'active' });
      expect(Date.parse(a.acknowledged_at!)).toBeGreaterThan(Date.now() - 60_000);

      const again = await ack(agent, id, { note: 'Someone else' });
      expect(again.statusCode).toBe(200);
      expect(AlertSchema.parse(again.json())).toMatchObject({
        acknowledged_by: 'site',
        acknowledged_at: a.acknowledged_at,
        note: 'Engineer on the way',
      });
      // Without a body too.
      const bare = await ack(agent, id);
      expect(bare.statusCode, bare.body).toBe(200);

      const audit = await t.database.query<{ username: string; after: { note: string } }>(
        `select username, after from audit_log where entity = 'alert' and entity_id = $1`,
        [id],
      );
      expect(audit).toHaveLength(1);
      expect(audit[0]).toMatchObject({ username: 'site', after: { note: 'Engineer on the way' } });
      // The agent's audit screen lists it (GET /api/admin/audit/).
      const trail = await t.as(agent, { method: 'GET', url: '/api/admin/audit/?entity=alert' });
      expect(trail.statusCode, trail.body).toBe(200);
      expect(JSON.stringify(trail.json())).toContain('Engineer on the way');

      const shown = await list(site, `/api/alerts/site/${f.siteId}/?acknowledged=true`);
      expect(shown.find((r) => r.id === id)?.acknowledged_by).toBe('site');
    });

    it('answers 403 outside the caller scope, 404 for an unknown or non-numeric id', async () => {
      const outside = await alertAt(f.companySite.siteId, 'active');
      const res = await ack(site, outside, { note: 'not mine' });
      expect(res.statusCode).toBe(403);
      ErrorBodySchema.parse(res.json());
      const other = await alertAt(f.otherCompanySite.siteId, 'active');
      expect((await ack(company, other)).statusCode).toBe(403);
      // Nothing changed.
      const row = await t.database.query<{ acknowledged_at: unknown }>(
        'select acknowledged_at from alerts where id = $1',
        [outside],
      );
      expect(row[0]!.acknowledged_at).toBeNull();
      expect((await ack(agent, 2_000_000_000)).statusCode).toBe(404);
      expect((await ack(agent, 'abc')).statusCode).toBe(404);
      expect((await t.app.inject({ method: 'POST', url: `/api/alerts/${outside}/ack/` })).statusCode).toBe(
        401,
      );
    });

    it('answers 400 naming a bad note or an unknown field', async () => {
      const id = await alertAt(f.companySite.siteId, 'active');
      const bad = await ack(company, id, { note: 5 });
      expect(bad.statusCode).toBe(400);
      expect(JSON.stringify(bad.json())).toMatch(/note/);
      const long = await ack(company, id, { note: 'x'.repeat(501) });
      expect(long.statusCode).toBe(400);
      expect(JSON.stringify(long.json())).toMatch(/note must be at most 500/);
      const extra = await ack(company, id, { nope: true });
      expect(extra.statusCode).toBe(400);
      expect(JSON.stringify(extra.json())).toMatch(/nope/);
    });
  });

  describe('filters', () => {
    it('state and acknowledged filter every alert list and log', async () => {
      const urls = [
        `/api/alerts/agent/${agentId}/`,
        logApiPath('alert', 'agent', agentId),
        logApiPath('hardware', 'company', companyId),
        logApiPath('alert', 'site', f.siteId),
      ];
      const id = await alertAt(f.siteId, 'active');
      await ack(agent, id);
      for (const url of urls) {
        const token = url.includes('/site/') ? site : url.includes('/company/') ? company : agent;
        const active = await list(token, `${url}?state=active&limit_to=1000`);
        expect(active.length, url).toBeGreaterThan(0);
        expect(active.every((a) => a.state === 'active' && a.cleared_at === null)).toBe(true);
        const cleared = await list(token, `${url}?state=cleared&limit_to=1000`);
        expect(cleared.length, url).toBeGreaterThan(0);
        expect(cleared.every((a) => a.state === 'cleared' && a.cleared_at !== null)).toBe(true);
        const acked = await list(token, `${url}?acknowledged=true&limit_to=1000`);
        expect(acked.every((a) => a.acknowledged_at !== null)).toBe(true);
        const open = await list(token, `${url}?state=active&acknowledged=false&limit_to=1000`);
        expect(open.every((a) => a.acknowledged_at === null && a.state === 'active')).toBe(true);
        expect(open.some((a) => a.id === id)).toBe(false);
      }
      const acked = await list(agent, `/api/alerts/agent/${agentId}/?acknowledged=true`);
      expect(acked.map((a) => a.id)).toContain(id);
    });

    it('a bad state or acknowledged value is 400 naming it', async () => {
      for (const url of [`/api/alerts/agent/${agentId}/`, logApiPath('alert', 'agent', agentId)]) {
        const state = await get(agent, `${url}?state=open`);
        expect(state.statusCode).toBe(400);
        expect(ErrorBodySchema.parse(state.json()).data.errors.join(' ')).toMatch(
          /state must be 'active' or 'cleared'/,
        );
        const acked = await get(agent, `${url}?acknowledged=maybe`);
        expect(acked.statusCode).toBe(400);
        expect(ErrorBodySchema.parse(acked.json()).data.errors.join(' ')).toMatch(
          /acknowledged must be true or false/,
        );
      }
    });

    it('sort=severity lists the worst first; count answers how many match (the bell)', async () => {
      const rows = await list(
        agent,
        `/api/alerts/agent/${agentId}/?state=active&sort=severity&limit_to=1000`,
      );
      const ranks = rows.map((a) => severityRank(a.severity));
      expect(ranks).toEqual([...ranks].sort((a, b) => a - b));
      const count = await get(agent, `/api/alerts/agent/${agentId}/count/?state=active&acknowledged=false`);
      expect(count.statusCode).toBe(200);
      expect(count.json()).toEqual({ count: rows.filter((a) => a.acknowledged_at === null).length });
      expect((await get(site, `/api/alerts/agent/${agentId}/count/`)).statusCode).toBe(403);
    });
  });

  describe('clearing', () => {
    it('a device clears its own alerts of a type with clear: true; they leave the active view, stay in the log', async () => {
      const token = await provision(f.plainTerminalId);
      const raised = await device(token, [
        { event_type: 2, text: 'Printer failure: paper jam' },
        { event_type: 2, text: 'Printer failure: paper out' },
        { event_type: 13, text: 'Display failure: screen blank' },
      ]);
      expect(raised.statusCode, raised.body).toBe(202);
      const mine = (rows: z.infer<typeof Alerts>) =>
        rows.filter(
          (a) => a.text.startsWith('Printer failure: paper') && a.number !== '' && a.event_type === 2,
        );
      const active = await list(
        site,
        `/api/alerts/site/${f.siteId}/?state=active&event_type=2&limit_to=1000`,
      );
      const printer = mine(active).slice(0, 2);
      expect(printer).toHaveLength(2);
      expect(printer.every((a) => a.severity === 'minor')).toBe(true);

      const clear = await device(token, { event_type: 2, clear: true });
      expect(clear.statusCode, clear.body).toBe(202);
      const after = await list(site, `/api/alerts/site/${f.siteId}/?state=active&limit_to=1000`);
      for (const a of printer) expect(after.map((r) => r.id)).not.toContain(a.id);
      // The display failure of the same terminal stays active.
      expect(after.some((a) => a.text === 'Display failure: screen blank')).toBe(true);
      const log = await list(site, `${logApiPath('alert', 'site', f.siteId)}?state=cleared&event_type=2`);
      const cleared = log.filter((a) => printer.some((p) => p.id === a.id));
      expect(cleared).toHaveLength(2);
      expect(cleared.every((a) => a.cleared_at !== null)).toBe(true);
    });

    it('a clear in a batch applies in order; text is required unless clear', async () => {
      const token = await provision(f.plainTerminalId);
      const res = await device(token, [
        { event_type: 7, clear: true },
        { event_type: 7, text: 'Door opened: service panel opened' },
      ]);
      expect(res.statusCode).toBe(202);
      const active = await list(site, `/api/alerts/site/${f.siteId}/?state=active&event_type=7`);
      expect(active.some((a) => a.text === 'Door opened: service panel opened')).toBe(true);

      const missing = await device(token, { event_type: 7 });
      expect(missing.statusCode).toBe(400);
      expect(JSON.stringify(missing.json())).toMatch(/text is required/);
      const wrong = await device(token, { event_type: 7, clear: false, text: 'x' });
      expect(wrong.statusCode).toBe(400);
      expect(JSON.stringify(wrong.json())).toMatch(/clear must be true/);
    });

    it("a terminal's offline alert clears when it reports again; no separate online alert", async () => {
      const token = await provision(f.controllerId);
      const later = new Date(Date.now() + (t.app.heartbeats.timeoutS + 120) * 1000);
      const gone = await t.app.heartbeats.sweep(later);
      expect(gone).toContain(f.controllerId);
      const offline = await t.database.query<{ id: string | number; severity: string; state: string }>(
        `select id, severity, state from alerts where terminal_id = $1 and event_type = 3 order by id desc limit 1`,
        [f.controllerId],
      );
      expect(offline[0]).toMatchObject({ severity: 'critical', state: 'active' });
      const before = await t.database.query<{ n: string | number }>(
        'select count(*) as n from alerts where terminal_id = $1',
        [f.controllerId],
      );

      const res = await t.app.inject({
        method: 'GET',
        url: '/api/device/v1/me',
        headers: { authorization: `Device ${token}` },
      });
      expect(res.statusCode).toBe(200);
      const after = await t.database.query<{ state: string; cleared_at: unknown }>(
        'select state, cleared_at from alerts where id = $1',
        [offline[0]!.id],
      );
      expect(after[0]!.state).toBe('cleared');
      expect(after[0]!.cleared_at).not.toBeNull();
      const count = await t.database.query<{ n: string | number }>(
        'select count(*) as n from alerts where terminal_id = $1',
        [f.controllerId],
      );
      expect(Number(count[0]!.n)).toBe(Number(before[0]!.n));
    });
  });

  describe('grouped by site', () => {
    it('one row per site with active alerts, worst first, counts matching the active list', async () => {
      for (const [token, kind, id] of [
        [agent, 'agent', agentId],
        [company, 'company', companyId],
      ] as const) {
        const res = await get(token, `/api/alerts/${kind}/${id}/sites/`);
        expect(res.statusCode, res.body).toBe(200);
        const rows = Sites.parse(res.json());
        expect(rows.length).toBeGreaterThan(1);
        const ranks = rows.map((r) => SEVERITIES.indexOf(r.worst_severity));
        expect(ranks).toEqual([...ranks].sort((a, b) => a - b));
        const active = await list(token, `/api/alerts/${kind}/${id}/?state=active&limit_to=1000`);
        for (const row of rows) {
          const mine = active.filter((a) => a.site_id === row.site_id);
          expect(row.active).toBe(mine.length);
          expect(row.unacknowledged).toBe(mine.filter((a) => a.acknowledged_at === null).length);
          expect(row.worst_severity).toBe(SEVERITIES[Math.min(...mine.map((a) => severityRank(a.severity)))]);
          expect(row.latest_at).toBe(
            mine
              .map((a) => a.started_at)
              .sort()
              .at(-1),
          );
        }
        expect(new Set(active.map((a) => a.site_id)).size).toBe(rows.length);
      }
      expect((await get(company, `/api/alerts/agent/${agentId}/sites/`)).statusCode).toBe(403);
      expect((await get(site, `/api/alerts/company/${companyId}/sites/`)).statusCode).toBe(403);
    });
  });
});
