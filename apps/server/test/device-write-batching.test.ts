import { AcceptedSchema } from '@forecourt/contract/device';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeviceTerminal, TelemetryWrite } from '../src/repositories/device-repository.ts';
import { createTelemetryWriter } from '../src/services/telemetry-writes.ts';
import { deviceCall, provisionDevice, refuseBatteryReading } from './fleet-fixture.ts';
import { buildTestApp, postgresUnavailable, type TestApp } from './helper.ts';

interface Terminal {
  id: number;
  site_id: number;
  company_id: number;
  agent_id: number;
}

/** Device telemetry written in group commits (docs/decisions/0023-device-write-batching.md). */
describe.skipIf(postgresUnavailable)('device writes in group commits', () => {
  let t: TestApp;
  let terminals: Terminal[];
  let tokens: string[];
  let agent: string;

  const lastChange = async () =>
    Number((await t.database.query<{ id: string | null }>('select max(id) as id from changes'))[0].id ?? 0);
  const telemetryChanges = (after: number) =>
    t.database.query<Terminal & { terminal_id: number; xid: string }>(
      `select terminal_id, site_id, company_id, agent_id, xid::text as xid from changes
        where id > $1 and kind = 'telemetry' order by id`,
      [after],
    );
  /** Rows of a terminal with this battery reading, stored since `since` (the demo history has readings too). */
  const rowsOf = async (terminalId: number, value: number, since: Date) =>
    Number(
      (
        await t.database.query<{ n: string | number }>(
          'select count(*) as n from telemetry where terminal_id = $1 and battery_life = $2 and at >= $3',
          [terminalId, value, since],
        )
      )[0].n,
    );

  beforeAll(async () => {
    t = await buildTestApp();
    agent = await t.login('agent');
    terminals = await t.database.query<Terminal>(
      `select t.id, t.site_id, t.company_id, t.agent_id from terminals t join users u on u.agent_id = t.agent_id
        where u.username = 'agent' and t.decommissioned_at is null order by t.id limit 24`,
    );
    expect(terminals.length).toBe(24);
    tokens = [];
    for (const term of terminals) tokens.push(await provisionDevice(t, agent, term.id));
    // The first call of each token resolves it and brings its terminal online: done here, not in the measure.
    await Promise.all(tokens.map((tok) => deviceCall(t, tok, 'GET', 'me')));
  });
  afterAll(async () => t?.close());

  it('concurrent writes of many terminals all land, each with its rows, latest readings and change row', async () => {
    const before = await lastChange();
    const start = new Date();
    // Two requests per terminal at once: 48 writes; a terminal's second write waits for its first.
    const sent = terminals.flatMap((term, i) => [
      { i, term, reading: { battery_life: 10 + i, temperature_main_board: 30 + i } },
      { i, term, reading: { battery_life: 50 + i, flash_left: 20 + i } },
    ]);
    const answers = await Promise.all(
      sent.map((s) => deviceCall(t, tokens[s.i], 'POST', 'telemetry', s.reading)),
    );
    for (const res of answers) {
      expect(res.statusCode, res.body).toBe(202);
      expect(AcceptedSchema.parse(res.json())).toEqual({ accepted: 1 });
    }
    for (const s of sent) expect(await rowsOf(s.term.id, s.reading.battery_life, start)).toBe(1);

    const changes = await telemetryChanges(before);
    expect(changes).toHaveLength(sent.length);
    for (const term of terminals) {
      const mine = changes.filter((c) => c.terminal_id === term.id);
      expect(mine).toHaveLength(2);
      for (const c of mine) {
        expect(c).toMatchObject({
          site_id: term.site_id,
          company_id: term.company_id,
          agent_id: term.agent_id,
        });
      }
      // Each write of one terminal committed in its own transaction.
      expect(mine[0].xid).not.toBe(mine[1].xid);
    }
    // Writes of different terminals shared transactions: fewer commits than requests.
    expect(new Set(changes.map((c) => c.xid)).size).toBeLessThan(sent.length);

    // Every terminal holds its readings: each field from whichever write carried it.
    const latest = await t.database.query<{
      id: number;
      battery_life: number;
      temperature_main_board: number;
      flash_left: number;
    }>(
      'select id, battery_life, temperature_main_board, flash_left from terminals where id = any($1::int[]) order by id',
      [terminals.map((x) => x.id)],
    );
    terminals.forEach((term, i) => {
      const row = latest.find((r) => r.id === term.id)!;
      expect([10 + i, 50 + i]).toContain(row.battery_life);
      expect(row.temperature_main_board).toBe(30 + i);
      expect(row.flash_left).toBe(20 + i);
    });
  });

  it('a write the database refuses fails alone; the others of its batch are stored', async () => {
    const lift = await refuseBatteryReading(t.database, 13.5, 'insert');
    try {
      const before = await lastChange();
      const start = new Date();
      const bad = 5;
      const answers = await Promise.all(
        tokens.map((tok, i) =>
          deviceCall(t, tok, 'POST', 'telemetry', { battery_life: i === bad ? 13.5 : 70 + i / 10 }),
        ),
      );
      answers.forEach((res, i) => {
        if (i === bad) expect(res.statusCode).not.toBe(202);
        else expect(res.statusCode, res.body).toBe(202);
      });
      const changes = await telemetryChanges(before);
      expect(changes.map((c) => c.terminal_id).sort((a, b) => a - b)).toEqual(
        terminals
          .filter((_, i) => i !== bad)
          .map((x) => x.id)
          .sort((a, b) => a - b),
      );
      expect(await rowsOf(terminals[bad].id, 13.5, start)).toBe(0);
      for (const [i, term] of terminals.entries()) {
        if (i !== bad) expect(await rowsOf(term.id, 70 + i / 10, start)).toBe(1);
      }
    } finally {
      await lift();
    }
  });

  it('answers a write only after its batch committed, after the hook that acts on stored readings', async () => {
    const store = t.app.deviceWrites.telemetry;
    const events: string[] = [];
    const hooked: TelemetryWrite[][] = [];
    const writer = createTelemetryWriter({
      store: async (writes) => {
        events.push(`store ${writes.length}`);
        await store(writes);
        events.push('committed');
      },
      log: t.app.log,
      onStored: async (writes) => {
        hooked.push([...writes]);
        const n = await rowsOf(writes[0].terminal.id, 99.25, now);
        events.push(`hook sees ${n}`);
      },
    });
    const device = (term: Terminal): DeviceTerminal => ({
      id: term.id,
      siteId: term.site_id,
      companyId: term.company_id,
      agentId: term.agent_id,
      terminalNo: String(term.id),
      siteTitle: '',
      connectivity: 'on',
    });
    const now = new Date();
    const done = terminals
      .slice(0, 6)
      .map((term) =>
        writer.write(device(term), [{ battery_life: 99.25 }], now).then((n) => events.push(`answered ${n}`)),
      );
    await Promise.all(done);
    await writer.drained();
    expect(events[0]).toBe('store 6');
    expect(events.slice(1, 3)).toEqual(['committed', 'hook sees 1']);
    expect(events.slice(3)).toEqual(Array(6).fill('answered 1'));
    expect(hooked.flat().map((w) => w.terminal.id)).toEqual(terminals.slice(0, 6).map((x) => x.id));
  });
  it('evaluates the alert rules of every terminal of a group commit, each with its own state', async () => {
    const at = (s: number) => new Date(Date.now() + s * 1000).toISOString();
    const fleet = { scope: { kind: 'agent', id: terminals[0].agent_id }, tags: [] };
    const create = async (body: Record<string, unknown>) => {
      const res = await t.as(agent, {
        method: 'POST',
        url: '/api/rules/',
        payload: { target: fleet, ...body },
      });
      expect(res.statusCode, res.body).toBe(201);
      return res.json().id as number;
    };
    const low = await create({
      name: 'Low',
      signal: 'battery_life',
      op: '<',
      threshold: 20,
      clear_threshold: 25,
    });
    const hot = await create({
      name: 'Hot',
      signal: 'temperature_main_board',
      op: '>',
      threshold: 70,
      for_s: 60,
    });
    const even = (i: number) => i % 2 === 0;
    /** Every terminal at once (in a few group commits), reading `reading(i)`. */
    const round = async (reading: (i: number) => Record<string, unknown>) => {
      const answers = await Promise.all(
        terminals.map((_, i) => deviceCall(t, tokens[i], 'POST', 'telemetry', reading(i))),
      );
      for (const res of answers) expect(res.statusCode, res.body).toBe(202);
    };
    const active = async (rule: number) =>
      (
        await t.database.query<{ terminal_id: number }>(
          `select terminal_id from alerts where rule_id = $1 and state = 'active' order by terminal_id`,
          [rule],
        )
      ).map((r) => Number(r.terminal_id));
    const ids = (pick: (i: number) => boolean) => terminals.filter((_, i) => pick(i)).map((x) => x.id);
    try {
      // Even terminals: battery low (fires at once) and a hot board (pending); odd ones: neither.
      await round((i) => ({
        battery_life: even(i) ? 10 : 50,
        temperature_main_board: even(i) ? 75 : 40,
        at: at(-100),
      }));
      expect(await active(low)).toEqual(ids(even));
      expect(await active(hot)).toEqual([]);
      // 70 s later: the even boards have been hot for 70 s (fire), the odd ones only begin (pending); the battery
      // of the even terminals is in the hysteresis band (stays), that of the odd ones drops (fires).
      await round((i) => ({
        battery_life: even(i) ? 22 : 12,
        temperature_main_board: 76,
        at: at(-30),
      }));
      expect(await active(low)).toEqual(ids(() => true));
      expect(await active(hot)).toEqual(ids(even));
      // The odd boards held for 60 s: they fire now; the even batteries recover (clear), each terminal reporting
      // only that signal.
      await round((i) =>
        even(i) ? { battery_life: 30, at: at(30) } : { temperature_main_board: 77, at: at(30) },
      );
      expect(await active(low)).toEqual(ids((i) => !even(i)));
      expect(await active(hot)).toEqual(ids(() => true));
      const alerts = await t.database.query<{ n: string | number }>(
        'select count(*) as n from alerts where rule_id = any($1::int[])',
        [[low, hot]],
      );
      expect(Number(alerts[0].n)).toBe(terminals.length * 2);
    } finally {
      for (const id of [low, hot]) await t.as(agent, { method: 'DELETE', url: `/api/rules/${id}/` });
    }
  });
});
