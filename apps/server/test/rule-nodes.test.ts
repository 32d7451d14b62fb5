import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openFleetOnTwoNodes, provisionDevice, type TwoNodeSession } from './fleet-fixture.ts';
import { postgresUnavailable } from './helper.ts';

/**
 * Two API nodes on one database (PostgreSQL: each with its own pool; PGlite: two apps on the one embedded database)
 * receiving alternate readings of one terminal: the rule fires and clears exactly once.
 */
describe.skipIf(postgresUnavailable)('alert rules on two nodes of one database', () => {
  let { t, b, nodeB, f, agent, close } = {} as TwoNodeSession;
  let token: string;

  const telemetry = (node: FastifyInstance, payload: unknown) =>
    node.inject({
      method: 'POST',
      url: '/api/device/v1/telemetry',
      headers: { authorization: `Device ${token}` },
      payload: payload as object,
    });
  const alertsOf = async (ruleId: number) =>
    t.database.query<{ id: number; state: string }>(
      'select id, state from alerts where rule_id = $1 and terminal_id = $2 order by id',
      [ruleId, f.plainTerminalId],
    );
  /** Waits until node B's change feed has passed every change written so far (a rule written on A). */
  const bCaughtUp = () => nodeB.caughtUp();
  const createRule = async (body: Record<string, unknown>) => {
    const res = await t.as(agent, { method: 'POST', url: '/api/rules/', payload: body });
    expect(res.statusCode, res.body).toBe(201);
    await bCaughtUp();
    return res.json().id as number;
  };
  const at = (s: number) => new Date(Date.now() + s * 1000).toISOString();

  beforeAll(async () => {
    // Two apps and a seeded database: slower than one on a loaded machine.
    ({ t, b, nodeB, f, agent, close } = await openFleetOnTwoNodes());
    token = await provisionDevice(t, agent, f.plainTerminalId);
  }, 180_000);
  afterAll(async () => close?.());

  it('alternate readings arriving at once on two nodes fire once and clear once', async () => {
    const rule = await createRule({
      name: 'Battery low',
      target: { scope: { kind: 'terminal', id: f.plainTerminalId }, tags: [] },
      signal: 'battery_life',
      op: '<',
      threshold: 20,
      clear_threshold: 25,
    });
    for (let round = 0; round < 5; round++) {
      const res = await Promise.all([
        telemetry(t.app, { battery_life: 15, at: at(-100 + round * 2) }),
        telemetry(b, { battery_life: 14, at: at(-99 + round * 2) }),
      ]);
      expect(res.map((r) => r.statusCode)).toEqual([202, 202]);
    }
    expect((await alertsOf(rule)).map((a) => a.state)).toEqual(['active']);
    await Promise.all([
      telemetry(t.app, { battery_life: 30, at: at(-50) }),
      telemetry(b, { battery_life: 31, at: at(-49) }),
    ]);
    expect((await alertsOf(rule)).map((a) => a.state)).toEqual(['cleared']);
    await Promise.all([
      telemetry(b, { battery_life: 5, at: at(-40) }),
      telemetry(t.app, { battery_life: 6, at: at(-39) }),
    ]);
    expect((await alertsOf(rule)).map((a) => a.state)).toEqual(['cleared', 'active']);
    await t.as(agent, { method: 'DELETE', url: `/api/rules/${rule}/` });
  });

  it('for_s held across readings received by different nodes fires once; two sweeps at once fire once', async () => {
    const rule = await createRule({
      name: 'Hot board',
      target: { scope: { kind: 'terminal', id: f.plainTerminalId }, tags: [] },
      signal: 'temperature_main_board',
      op: '>',
      threshold: 70,
      for_s: 60,
    });
    await telemetry(t.app, { temperature_main_board: 75, at: at(-100) });
    await telemetry(b, { temperature_main_board: 76, at: at(-70) });
    expect(await alertsOf(rule)).toEqual([]);
    await telemetry(t.app, { temperature_main_board: 77, at: at(-30) });
    await telemetry(b, { temperature_main_board: 78, at: at(-20) });
    expect((await alertsOf(rule)).map((a) => a.state)).toEqual(['active']);
    await telemetry(b, { temperature_main_board: 60, at: at(-10) });
    expect((await alertsOf(rule)).map((a) => a.state)).toEqual(['cleared']);

    await telemetry(t.app, { temperature_main_board: 80 });
    const later = new Date(Date.now() + 120_000);
    const [x, y] = await Promise.all([t.app.rules.sweep(later), b.rules.sweep(later)]);
    expect(x.fired + y.fired).toBe(1);
    expect((await alertsOf(rule)).map((a) => a.state)).toEqual(['cleared', 'active']);
  });
});
