import { AuditEntrySchema } from '@forecourt/contract/admin';
import { AlertRuleSchema } from '@forecourt/contract/alert-rules';
import { ErrorBodySchema } from '@forecourt/contract/common';
import { AlertSchema } from '@forecourt/contract/fleet';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { deviceCall, type FleetSession, openFleetSession, provisionDevice } from './fleet-fixture.ts';
import { postgresUnavailable, requestsAs } from './helper.ts';

const errorsOf = (res: { json(): unknown }) => ErrorBodySchema.parse(res.json()).data.errors;
const Rules = z.array(AlertRuleSchema);
const Alerts = z.array(AlertSchema);

describe.skipIf(postgresUnavailable)('alert rules (docs/rules-and-maintenance.md)', () => {
  let { t, f, agent, company, site, agentId, companyId } = {} as FleetSession;
  /** A device token of a terminal at the site user's site, and one of a terminal at another site of the company. */
  let device: string;
  let otherDevice: string;

  const { as, post, patch, get, del } = requestsAs(
    () => t,
    () => agent,
  );

  const terminalTarget = (id: number, tags: string[] = []) => ({ scope: { kind: 'terminal', id }, tags });
  /** A rule on the plain terminal's battery below 20 %: the body of most tests' rule, with their own fields after. */
  const batteryLow = () => ({
    name: 'Battery low',
    target: terminalTarget(f.plainTerminalId),
    signal: 'battery_life',
    op: '<',
    threshold: 20,
  });
  async function createRule(body: Record<string, unknown>, token = agent) {
    const res = await post('/api/rules/', body, token);
    expect(res.statusCode, res.body).toBe(201);
    return AlertRuleSchema.parse(res.json());
  }
  const telemetry = (token: string, payload: unknown) => deviceCall(t, token, 'POST', 'telemetry', payload);
  const at = (offsetS: number) => new Date(Date.now() + offsetS * 1000).toISOString();
  /** The alerts a rule raised at a terminal, oldest first, as the agent's alert list answers them. */
  async function ruleAlerts(ruleId: number, terminalId = f.plainTerminalId) {
    const rows = await t.database.query<{ id: number | string }>(
      'select id from alerts where rule_id = $1 and terminal_id = $2 order by id',
      [ruleId, terminalId],
    );
    const res = await get(`/api/alerts/agent/${agentId}/?limit_to=1000&event_type=100`);
    expect(res.statusCode, res.body).toBe(200);
    const listed = Alerts.parse(res.json());
    return rows.map((r) => listed.find((a) => a.id === Number(r.id)) ?? null);
  }

  beforeAll(async () => {
    ({ t, f, agent, company, site, agentId, companyId } = await openFleetSession());
    device = await provisionDevice(t, agent, f.plainTerminalId);
    otherDevice = await provisionDevice(t, agent, f.companySite.terminalId);
  });
  afterAll(async () => t?.close());
  beforeEach(async () => {
    // Each test starts without rules: those of earlier tests would fire too.
    await t.database.query(
      'update alert_rules set enabled = false, deleted_at = now() where deleted_at is null',
    );
    t.app.rules.forget();
  });

  describe('the API', () => {
    it('creates a rule with its defaults and answers its shape; lists and reads it', async () => {
      const rule = await createRule({
        ...batteryLow(),
      });
      expect(rule).toMatchObject({
        name: 'Battery low',
        target: { scope: { kind: 'terminal', id: f.plainTerminalId }, tags: [] },
        signal: 'battery_life',
        op: '<',
        threshold: 20,
        for_s: 0,
        clear_threshold: null,
        severity: 'major',
        enabled: true,
        created_by: 'agent',
      });
      expect(Date.parse(rule.created_at)).toBeGreaterThan(Date.now() - 60_000);
      const list = Rules.parse((await get('/api/rules/')).json());
      expect(list[0]).toEqual(rule);
      expect(AlertRuleSchema.parse((await get(`/api/rules/${rule.id}/`)).json())).toEqual(rule);
    });

    it('answers 400 naming every bad field', async () => {
      const res = await post('/api/rules/', {
        name: '',
        target: { scope: { kind: 'planet', id: 1 } },
        signal: 'fuel_price',
        op: '!=',
        threshold: 'low',
        for_s: 604_801,
        severity: 'dire',
      });
      expect(res.statusCode).toBe(400);
      const text = errorsOf(res).join('\n');
      for (const field of ['name', 'target.scope.kind', 'signal', 'op', 'threshold', 'for_s', 'severity'])
        expect(text, field).toContain(field);
      const wrongSide = await post('/api/rules/', {
        ...batteryLow(),
        clear_threshold: 10,
      });
      expect(wrongSide.statusCode).toBe(400);
      expect(errorsOf(wrongSide)).toEqual([
        'clear_threshold must be at or above threshold for a < or <= rule',
      ]);
      const above = await post('/api/rules/', {
        name: 'Hot',
        target: terminalTarget(f.plainTerminalId),
        signal: 'temperature_inside_cabinet',
        op: '>=',
        threshold: 50,
        clear_threshold: 55,
      });
      expect(errorsOf(above)).toEqual(['clear_threshold must be at or below threshold for a > or >= rule']);
      const negative = await post('/api/rules/', {
        name: 'x',
        target: terminalTarget(f.plainTerminalId),
        signal: 'battery_life',
        op: '<',
        threshold: 20,
        for_s: -1,
      });
      expect(errorsOf(negative).join()).toContain('for_s');
      const missing = await post('/api/rules/', { name: 'x', signal: 'battery_life', op: '<', threshold: 1 });
      expect(errorsOf(missing).join()).toContain('target');
      // A change is checked as the rule would become.
      const rule = await createRule({
        ...batteryLow(),
      });
      const bad = await patch(`/api/rules/${rule.id}/`, { clear_threshold: 5 });
      expect(bad.statusCode).toBe(400);
      expect(errorsOf(bad).join()).toContain('clear_threshold');
      expect((await patch(`/api/rules/${rule.id}/`, { for_s: 'soon' })).statusCode).toBe(400);
    });

    it('scope: agents and company users write inside theirs, site users read what reaches their sites', async () => {
      expect((await as('', { method: 'GET', url: '/api/rules/' })).statusCode).toBe(401);
      const agentWide = await createRule({
        name: 'Agent wide',
        target: { scope: { kind: 'agent', id: agentId }, tags: [] },
        signal: 'flash_left',
        op: '<',
        threshold: 5,
      });
      const atSite = await createRule(
        {
          name: 'At the site',
          target: { scope: { kind: 'site', id: f.siteId }, tags: [] },
          signal: 'battery_life',
          op: '<',
          threshold: 10,
        },
        company,
      );
      expect(atSite.created_by).toBe('company');
      const elsewhere = await createRule(
        {
          name: 'Another site of the company',
          target: { scope: { kind: 'site', id: f.companySite.siteId }, tags: [] },
          signal: 'battery_life',
          op: '<',
          threshold: 10,
        },
        company,
      );
      const otherCompany = await createRule({
        name: 'Other company',
        target: { scope: { kind: 'site', id: f.otherCompanySite.siteId }, tags: [] },
        signal: 'battery_life',
        op: '<',
        threshold: 10,
      });

      // Site users: read only, the rules reaching their sites.
      const body = {
        name: 'Mine',
        target: { scope: { kind: 'site', id: f.siteId }, tags: [] },
        signal: 'battery_life',
        op: '<',
        threshold: 10,
      };
      expect((await post('/api/rules/', body, site)).statusCode).toBe(403);
      const seen = Rules.parse((await get('/api/rules/', site)).json()).map((r) => r.id);
      expect(seen).toContain(agentWide.id);
      expect(seen).toContain(atSite.id);
      expect(seen).not.toContain(elsewhere.id);
      expect(seen).not.toContain(otherCompany.id);
      expect((await get(`/api/rules/${atSite.id}/`, site)).statusCode).toBe(200);
      expect((await get(`/api/rules/${elsewhere.id}/`, site)).statusCode).toBe(403);
      expect((await patch(`/api/rules/${atSite.id}/`, { enabled: false }, site)).statusCode).toBe(403);
      expect((await del(`/api/rules/${atSite.id}/`, site)).statusCode).toBe(403);

      // Company users: their companies, and what reaches into them; no write outside.
      const companySees = Rules.parse((await get('/api/rules/', company)).json()).map((r) => r.id);
      expect(companySees).toEqual(expect.arrayContaining([agentWide.id, atSite.id, elsewhere.id]));
      expect(companySees).not.toContain(otherCompany.id);
      expect((await get(`/api/rules/${otherCompany.id}/`, company)).statusCode).toBe(403);
      expect(
        (
          await post(
            '/api/rules/',
            { ...body, target: { scope: { kind: 'site', id: f.otherCompanySite.siteId } } },
            company,
          )
        ).statusCode,
      ).toBe(403);
      expect(
        (await post('/api/rules/', { ...body, target: { scope: { kind: 'agent', id: agentId } } }, company))
          .statusCode,
      ).toBe(403);
      expect((await patch(`/api/rules/${agentWide.id}/`, { threshold: 3 }, company)).statusCode).toBe(403);
      expect((await del(`/api/rules/${otherCompany.id}/`, company)).statusCode).toBe(403);
      expect(
        (
          await patch(
            `/api/rules/${atSite.id}/`,
            { target: { scope: { kind: 'site', id: f.otherCompanySite.siteId } } },
            company,
          )
        ).statusCode,
      ).toBe(403);
      expect((await patch(`/api/rules/${atSite.id}/`, { threshold: 12 }, company)).statusCode).toBe(200);

      // Outside every demo user; unknown and non-numeric ids.
      expect(
        (await post('/api/rules/', { ...body, target: { scope: { kind: 'site', id: f.outsider.siteId } } }))
          .statusCode,
      ).toBe(403);
      const unknown = await post('/api/rules/', {
        ...body,
        target: { scope: { kind: 'site', id: 999_999 } },
      });
      expect(unknown.statusCode).toBe(400);
      expect(errorsOf(unknown).join()).toContain('target.scope.id');
      expect((await get('/api/rules/999999/')).statusCode).toBe(404);
      expect((await get('/api/rules/abc/')).statusCode).toBe(404);
      expect((await patch('/api/rules/999999/', { enabled: false })).statusCode).toBe(404);
      expect((await del('/api/rules/999999/')).statusCode).toBe(404);
      expect(companyId).toBeGreaterThan(0);
    });

    it('pages newest first with limit_to and before', async () => {
      const made = [];
      for (let i = 0; i < 3; i++)
        made.push(
          await createRule({
            name: `Paged ${i}`,
            target: terminalTarget(f.plainTerminalId),
            signal: 'battery_life',
            op: '<',
            threshold: 1,
          }),
        );
      const first = await get('/api/rules/?limit_to=2');
      const page = Rules.parse(first.json());
      expect(page.map((r) => r.id)).toEqual([made[2]!.id, made[1]!.id]);
      expect(first.headers['x-next-cursor']).toBe(String(made[1]!.id));
      const next = Rules.parse((await get(`/api/rules/?limit_to=2&before=${made[1]!.id}`)).json());
      expect(next[0]!.id).toBe(made[0]!.id);
    });

    it('audits creating, changing and deleting a rule', async () => {
      const rule = await createRule({
        name: 'Audited',
        target: terminalTarget(f.plainTerminalId),
        signal: 'battery_life',
        op: '<',
        threshold: 20,
      });
      expect((await patch(`/api/rules/${rule.id}/`, { name: 'Audited twice' })).statusCode).toBe(200);
      const deleted = await del(`/api/rules/${rule.id}/`);
      expect(deleted.statusCode).toBe(200);
      expect(AlertRuleSchema.parse(deleted.json()).name).toBe('Audited twice');
      expect((await get(`/api/rules/${rule.id}/`)).statusCode).toBe(404);
      const audit = z
        .array(AuditEntrySchema)
        .parse((await get(`/api/admin/audit/?entity=alert_rule&entity_id=${rule.id}`)).json());
      expect(audit.map((e) => e.action)).toEqual(['delete', 'update', 'create']);
      expect(audit[1]).toMatchObject({
        user: 'agent',
        before: { name: 'Audited' },
        after: { name: 'Audited twice' },
      });
    });
  });

  describe('evaluation as readings arrive', () => {
    it('fires once, holds through the hysteresis band, clears at clear_threshold', async () => {
      const rule = await createRule({
        ...batteryLow(),
        clear_threshold: 25,
        severity: 'critical',
      });
      expect((await telemetry(device, { battery_life: 30, at: at(-50) })).statusCode).toBe(202);
      expect(await ruleAlerts(rule.id)).toEqual([]);
      expect((await telemetry(device, { battery_life: 15, at: at(-40) })).statusCode).toBe(202);
      let alerts = await ruleAlerts(rule.id);
      expect(alerts).toHaveLength(1);
      expect(alerts[0]).toMatchObject({
        event_type: 100,
        severity: 'critical',
        rule_id: rule.id,
        text: 'Battery low: battery_life 15 < 20',
        issue: 'Battery low',
        state: 'active',
        silenced: false,
        maintenance_id: null,
      });
      // 22 is above the threshold but under clear_threshold: still active; a new low reading raises no second.
      await telemetry(device, { battery_life: 22, at: at(-30) });
      await telemetry(device, { battery_life: 12, at: at(-20) });
      alerts = await ruleAlerts(rule.id);
      expect(alerts).toHaveLength(1);
      expect(alerts[0]!.state).toBe('active');
      await telemetry(device, { battery_life: 25, at: at(-10) });
      alerts = await ruleAlerts(rule.id);
      expect(alerts).toHaveLength(1);
      expect(alerts[0]!.state).toBe('cleared');
      // Another terminal of the same site is not the rule's target.
      const other = await provisionDevice(t, agent, f.controllerId);
      await telemetry(other, { battery_life: 1 });
      expect(await ruleAlerts(rule.id, f.controllerId)).toEqual([]);
      // Fires again on a new low reading: a second alert, the first stays cleared.
      await telemetry(device, { battery_life: 19 });
      const [cleared, active] = (await ruleAlerts(rule.id)).map((a) => a!);
      expect([cleared!.state, active!.state]).toEqual(['cleared', 'active']);
      // Lists, logs and the count filter by the rule that raised them (the Rules page links there).
      const byRule = Alerts.parse(
        (await get(`/api/alerts/agent/${agentId}/?rule_id=${rule.id}&state=active`)).json(),
      );
      expect(byRule.map((a) => a.id)).toEqual([active!.id]);
      const log = await get(`/api/agent/${agentId}/alert/log/?rule_id=${rule.id}`);
      expect(log.statusCode, log.body).toBe(200);
      expect((log.json() as { id: number }[]).map((a) => a.id)).toEqual([active!.id, cleared!.id]);
      const count = await get(`/api/alerts/agent/${agentId}/count/?rule_id=${rule.id}&state=active`);
      expect(count.json()).toEqual({ count: 1 });
      expect((await get(`/api/alerts/agent/${agentId}/?rule_id=x`)).statusCode).toBe(400);
    });

    it('without clear_threshold clears at the first reading not meeting the threshold; a batch is applied in order', async () => {
      const rule = await createRule({
        name: 'Flash',
        target: { scope: { kind: 'site', id: f.siteId }, tags: [] },
        signal: 'flash_left',
        op: '<=',
        threshold: 5,
      });
      const res = await telemetry(device, [
        { flash_left: 50, at: at(-30) },
        { flash_left: 5, at: at(-20) },
        { flash_left: 6, at: at(-10) },
        { flash_left: 2, at: at(-5) },
      ]);
      expect(res.statusCode).toBe(202);
      const alerts = await ruleAlerts(rule.id);
      expect(alerts.map((a) => [a!.state, a!.text])).toEqual([
        ['cleared', 'Flash: flash_left 5 <= 5'],
        ['active', 'Flash: flash_left 2 <= 5'],
      ]);
    });

    it('for_s: fires only when the condition held that long without a break; a reading older than the last is ignored', async () => {
      const rule = await createRule({
        name: 'Hot cabinet',
        target: terminalTarget(f.plainTerminalId),
        signal: 'temperature_inside_cabinet',
        op: '>',
        threshold: 50,
        for_s: 120,
      });
      await telemetry(device, { temperature_inside_cabinet: 55, at: at(-600) });
      await telemetry(device, { temperature_inside_cabinet: 56, at: at(-540) });
      await telemetry(device, { temperature_inside_cabinet: 40, at: at(-500) });
      await telemetry(device, { temperature_inside_cabinet: 57, at: at(-420) });
      expect(await ruleAlerts(rule.id)).toEqual([]);
      // A late reading from before the break changes nothing.
      await telemetry(device, { temperature_inside_cabinet: 58, at: at(-590) });
      expect(await ruleAlerts(rule.id)).toEqual([]);
      await telemetry(device, { temperature_inside_cabinet: 58.25, at: at(-300) });
      const alerts = await ruleAlerts(rule.id);
      expect(alerts).toHaveLength(1);
      expect(alerts[0]!.text).toBe('Hot cabinet: temperature_inside_cabinet 58.25 > 50');
    });

    it('for_s: the sweep fires a condition that has held long enough without a new reading', async () => {
      const rule = await createRule({
        name: 'Humid',
        target: terminalTarget(f.plainTerminalId),
        signal: 'humidity_inside_cabinet',
        op: '>=',
        threshold: 80,
        for_s: 300,
      });
      await telemetry(device, { humidity_inside_cabinet: 85, at: at(-120) });
      await t.app.rules.sweep(new Date());
      expect(await ruleAlerts(rule.id)).toEqual([]);
      const result = await t.app.rules.sweep(new Date(Date.now() + 200_000));
      expect(result.fired).toBe(1);
      const alerts = await ruleAlerts(rule.id);
      expect(alerts).toHaveLength(1);
      expect(alerts[0]!.text).toBe('Humid: humidity_inside_cabinet 85 >= 80');
      // Sweeping again fires nothing more; the next reading under the threshold clears it.
      expect((await t.app.rules.sweep(new Date(Date.now() + 300_000))).fired).toBe(0);
      await telemetry(device, { humidity_inside_cabinet: 60 });
      expect((await ruleAlerts(rule.id))[0]!.state).toBe('cleared');
    });

    it('one active alert per rule and terminal, even with readings arriving at once', async () => {
      const rule = await createRule({
        ...batteryLow(),
        target: { scope: { kind: 'agent', id: agentId }, tags: [] },
      });
      const results = await Promise.all(
        Array.from({ length: 8 }, (_, i) => telemetry(device, { battery_life: 10 + i, at: at(-10 + i) })),
      );
      expect(results.map((r) => r.statusCode)).toEqual(Array(8).fill(202));
      expect(await ruleAlerts(rule.id)).toHaveLength(1);
      // The same rule fires separately at another terminal of its target.
      await telemetry(otherDevice, { battery_life: 3 });
      expect(await ruleAlerts(rule.id, f.companySite.terminalId)).toHaveLength(1);
    });

    it('a target with tags reaches only the terminals carrying every tag, evaluated when used', async () => {
      const rule = await createRule({
        name: 'Kiosk battery',
        target: { scope: { kind: 'site', id: f.siteId }, tags: ['kiosk'] },
        signal: 'battery_life',
        op: '<',
        threshold: 20,
      });
      // Tags change through the admin API, as every write does: its 'fleet' change tells each node to look at the
      // terminal's rules again.
      const tag = async (tags: string[]) =>
        expect((await patch(`/api/admin/terminals/${f.plainTerminalId}/`, { tags })).statusCode).toBe(200);
      await tag([]);
      await telemetry(device, { battery_life: 5 });
      expect(await ruleAlerts(rule.id)).toEqual([]);
      await tag(['kiosk', 'outdoor']);
      await telemetry(device, { battery_life: 6 });
      expect(await ruleAlerts(rule.id)).toHaveLength(1);
      await tag([]);
    });

    it('disabling or deleting a rule clears its active alerts; a disabled rule does not fire', async () => {
      const rule = await createRule({
        ...batteryLow(),
      });
      await telemetry(device, { battery_life: 10 });
      expect((await ruleAlerts(rule.id))[0]!.state).toBe('active');
      // A reading that changes nothing: the node may now remember the rule firing on this terminal.
      await telemetry(device, { battery_life: 11 });
      expect(await ruleAlerts(rule.id)).toHaveLength(1);
      const off = await patch(`/api/rules/${rule.id}/`, { enabled: false });
      expect(off.statusCode).toBe(200);
      expect(AlertRuleSchema.parse(off.json()).enabled).toBe(false);
      expect((await ruleAlerts(rule.id))[0]!.state).toBe('cleared');
      await telemetry(device, { battery_life: 9 });
      expect(await ruleAlerts(rule.id)).toHaveLength(1);
      await patch(`/api/rules/${rule.id}/`, { enabled: true });
      await telemetry(device, { battery_life: 8 });
      const again = await ruleAlerts(rule.id);
      expect(again.map((a) => a!.state)).toEqual(['cleared', 'active']);
      expect((await del(`/api/rules/${rule.id}/`)).statusCode).toBe(200);
      expect((await ruleAlerts(rule.id)).map((a) => a!.state)).toEqual(['cleared', 'cleared']);
      await telemetry(device, { battery_life: 7 });
      expect(await ruleAlerts(rule.id)).toHaveLength(2);
    });

    it('a device may not report event type 100 (400 naming event_type)', async () => {
      const res = await deviceCall(t, device, 'POST', 'events', {
        event_type: 100,
        text: 'Battery low: forged',
      });
      expect(res.statusCode).toBe(400);
      expect(errorsOf(res).join()).toContain('event_type');
      const clear = await deviceCall(t, device, 'POST', 'events', [{ event_type: 100, clear: true }]);
      expect(clear.statusCode).toBe(400);
      expect(errorsOf(clear).join()).toContain('[0].event_type');
    });
  });

  describe('no_sales', () => {
    it('fires for a terminal that usually sells at this hour of the week and has not for for_s; a sale clears it', async () => {
      // Half past this hour (UTC and London agree in winter), so every sale falls in the same local hour.
      const now = new Date(Math.floor(Date.now() / 3_600_000) * 3_600_000 + 1_800_000);
      const week = 7 * 86_400_000;
      // A terminal with no history of its own: the demo seed's sales (rolled up too) are taken away first.
      for (const table of ['transactions', 'sales_hours', 'sales_terminals']) {
        await t.database.query(`delete from ${table} where terminal_id = $1`, [f.plainTerminalId]);
      }
      // 28 days of history: 6 sales at this hour of each of the last four weeks.
      const history = [1, 2, 3, 4].flatMap((w) =>
        Array.from({ length: 6 }, (_, i) => ({
          at: new Date(now.getTime() - w * week - i * 1000).toISOString(),
          volume_l: 20,
          amount: 30,
        })),
      );
      const res = await deviceCall(t, device, 'POST', 'transactions', history);
      expect(res.statusCode, res.body).toBe(202);
      const rule = await createRule({
        name: 'Sales stopped',
        target: terminalTarget(f.plainTerminalId),
        signal: 'no_sales',
        threshold: 5,
        for_s: 3600,
      });
      expect(rule.op).toBe('>=');
      const quiet = await createRule({
        name: 'Busy only',
        target: terminalTarget(f.plainTerminalId),
        signal: 'no_sales',
        threshold: 7,
        for_s: 3600,
      });
      const swept = await t.app.rules.sweep(now);
      expect(swept.noSales).toBe(1);
      const alerts = await ruleAlerts(rule.id);
      expect(alerts).toHaveLength(1);
      expect(alerts[0]!.text).toMatch(/^Sales stopped: no sales for 100\d\d min, usually 6\/h$/);
      expect(await ruleAlerts(quiet.id)).toEqual([]);
      // Swept again: still one.
      expect((await t.app.rules.sweep(now)).noSales).toBe(0);
      // A sale clears it, and a sale within for_s keeps it from firing again.
      await deviceCall(t, device, 'POST', 'transactions', {
        at: now.toISOString(),
        volume_l: 10,
        amount: 15,
      });
      expect((await ruleAlerts(rule.id))[0]!.state).toBe('cleared');
      expect((await t.app.rules.sweep(new Date(now.getTime() + 60_000))).noSales).toBe(0);
      expect((await ruleAlerts(rule.id)).length).toBe(1);
    });

    it('answers 400 for a no_sales rule with another op or a zero threshold', async () => {
      const res = await post('/api/rules/', {
        name: 'x',
        target: terminalTarget(f.plainTerminalId),
        signal: 'no_sales',
        op: '<',
        threshold: 0,
        for_s: 10,
      });
      expect(res.statusCode).toBe(400);
      const text = errorsOf(res).join('\n');
      expect(text).toContain('op');
      expect(text).toContain('threshold');
      expect(text).toContain('for_s');
    });
  });
});
