import { AuditEntrySchema } from '@forecourt/contract/admin';
import { ErrorBodySchema } from '@forecourt/contract/common';
import { DeviceCommandSchema } from '@forecourt/contract/device';
import {
  type Rollout,
  RolloutSchema,
  RolloutTerminalSchema,
  type SoftwarePackage,
} from '@forecourt/contract/software';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { deviceCall, type FleetSession, openFleetSession, provisionDevice } from './fleet-fixture.ts';
import { postgresUnavailable } from './helper.ts';
import { uploadPackage } from './software-upload.ts';

const errorsOf = (res: { json(): unknown }) => ErrorBodySchema.parse(res.json()).data.errors;
const Terminals = z.array(RolloutTerminalSchema);
const VERSION = '9.9.9';

/**
 * Software rollouts (docs/rollouts.md), driven by calling the leader's tick; time passing is simulated by moving the
 * stored times of a rollout back (its wave start, its commands), so every clock is the database's.
 */
describe.skipIf(postgresUnavailable)('software rollouts', { timeout: 120_000 }, () => {
  let { t, f, agent, company, site, agentId } = {} as FleetSession;
  let pkg: SoftwarePackage;
  /** Live terminals of the demo agent not used yet by a test. */
  let spare: number[];
  const tokens = new Map<number, string>();
  const siteOf = new Map<number, number>();
  let tagNo = 0;

  const post = (url: string, payload?: unknown, token = agent) =>
    t.as(token, { method: 'POST', url, ...(payload === undefined ? {} : { payload: payload as object }) });
  const get = (url: string, token = agent) => t.get(token, url);
  const tick = () => t.app.rollouts.tick();
  const rollout = async (id: number): Promise<Rollout> =>
    RolloutSchema.parse((await get(`/api/rollouts/${id}/`)).json());
  const rows = async (id: number) =>
    Terminals.parse((await get(`/api/rollouts/${id}/terminals/?limit_to=1000`)).json());
  const statusOf = async (id: number, terminalId: number) =>
    (await rows(id)).find((r) => r.terminal.id === terminalId)!;

  /** `n` fresh terminals (each on a site of its own with `distinct`) with a tag of their own, on 1.0.0, with tokens. */
  async function terminals(n: number, distinct = false) {
    let ids: number[];
    if (distinct) {
      const seen = new Set<number>();
      ids = spare.filter((id) => {
        const s = siteOf.get(id)!;
        if (seen.has(s) || seen.size >= n) return false;
        seen.add(s);
        return true;
      });
      spare = spare.filter((id) => !ids.includes(id));
    } else ids = spare.splice(0, n);
    if (ids.length < n) throw new Error('not enough spare terminals');
    const tag = `rollout-${tagNo++}`;
    await t.database.query(
      `update terminals set tags = array[$2], software_version = '1.0.0' where id = any($1::int[])`,
      [ids, tag],
    );
    for (const id of ids) if (!tokens.has(id)) tokens.set(id, await provisionDevice(t, agent, id));
    return { ids, target: { scope: { kind: 'agent', id: agentId }, tags: [tag] } };
  }
  async function create(body: Record<string, unknown>) {
    const res = await post('/api/rollouts/', { package_id: pkg.id, ...body });
    expect(res.statusCode, res.body).toBe(201);
    return RolloutSchema.parse(res.json());
  }
  /** The install commands a terminal fetches now. */
  async function fetchInstall(terminalId: number) {
    const res = await deviceCall(t, tokens.get(terminalId)!, 'GET', 'commands');
    expect(res.statusCode, res.body).toBe(200);
    return z
      .array(DeviceCommandSchema)
      .parse(res.json())
      .filter((c) => c.kind === 'install');
  }
  const ack = (terminalId: number, commandId: number, result: 'ok' | 'failed', detail?: string) =>
    deviceCall(t, tokens.get(terminalId)!, 'POST', `commands/${commandId}/ack`, {
      result,
      ...(detail ? { detail } : {}),
    });
  const report = (terminalId: number, version = VERSION) =>
    deviceCall(t, tokens.get(terminalId)!, 'POST', 'telemetry', { software_version: version });
  /** Fetch, ack ok and report the version: a terminal that installs. */
  async function install(terminalId: number) {
    const [c] = await fetchInstall(terminalId);
    expect(c, `install command for ${terminalId}`).toBeTruthy();
    expect((await ack(terminalId, c.id, 'ok')).statusCode).toBe(200);
    expect((await report(terminalId)).statusCode).toBe(202);
  }
  /** Moves a rollout `s` seconds into the past: its wave start and its terminals' and commands' times. */
  async function age(id: number, s: number) {
    await t.database.query(
      `update rollouts set wave_started_at = wave_started_at - make_interval(secs => $2) where id = $1`,
      [id, s],
    );
    await t.database.query(
      `update rollout_terminals set sent_at = sent_at - make_interval(secs => $2),
              acked_at = acked_at - make_interval(secs => $2) where rollout_id = $1`,
      [id, s],
    );
    await t.database.query(
      `update commands c set sent_at = c.sent_at - make_interval(secs => $2),
              expires_at = c.expires_at - make_interval(secs => $2),
              completed_at = c.completed_at - make_interval(secs => $2)
         from rollout_terminals rt where rt.rollout_id = $1 and c.id = rt.command_id`,
      [id, s],
    );
  }

  beforeAll(async () => {
    ({ t, f, agent, company, site, agentId } = await openFleetSession({}, { settleCommands: true }));
    pkg = await uploadPackage(t, agent, VERSION);
    const list = await t.database.query<{ id: number; site_id: number }>(
      `select id, site_id from terminals where agent_id = $1 and decommissioned_at is null and id <> all($2::int[])
        order by id`,
      [agentId, [f.plainTerminalId, f.controllerId]],
    );
    spare = list.map((r) => Number(r.id));
    for (const r of list) siteOf.set(Number(r.id), Number(r.site_id));
    // Every site on UTC unless a test says otherwise: windows are then in UTC.
    await t.database.query(`update sites set timezone = 'UTC'`);
  }, 180_000);
  afterAll(async () => t?.close());

  it('creates a rollout with its defaults and answers its shape', async () => {
    const { ids, target } = await terminals(3);
    const r = await create({ target });
    expect(r).toMatchObject({
      package_id: pkg.id,
      target,
      state: 'running',
      wave: 1,
      waves: [1, 10, 100],
      wave_wait_s: 900,
      window: null,
      max_failure_pct: 5,
      paused_reason: null,
      created_by: 'agent',
      counts: { pending: 3, sent: 0, installing: 0, done: 0, failed: 0, skipped: 0 },
    });
    expect(Date.parse(r.created_at)).toBeGreaterThan(Date.now() - 60_000);
    const list = z.array(RolloutSchema).parse((await get('/api/rollouts/')).json());
    expect(list[0].id).toBe(r.id);
    const members = await rows(r.id);
    expect(members.map((m) => m.terminal.id).sort((a, b) => a - b)).toEqual(ids);
    expect(members[0]).toMatchObject({ status: 'pending', from_version: '1.0.0', detail: null });
    expect(members[0].site.title).toBeTruthy();
    await post(`/api/rollouts/${r.id}/cancel/`);
  });

  it('answers 400 naming every bad field', async () => {
    const { target } = await terminals(1);
    const res = await post('/api/rollouts/', {
      package_id: 'x',
      target: { scope: { kind: 'planet', id: 1 } },
      waves: [10, 5],
      wave_wait_s: -1,
      window: { start: '25:00', end: '5am' },
      max_failure_pct: 101,
    });
    expect(res.statusCode).toBe(400);
    const text = errorsOf(res).join('\n');
    for (const field of [
      'package_id',
      'target.scope.kind',
      'waves',
      'wave_wait_s',
      'window.start',
      'window.end',
      'max_failure_pct',
    ])
      expect(text, field).toContain(field);
    for (const waves of [[50], [0, 100], [50, 50, 100], []]) {
      const bad = await post('/api/rollouts/', { package_id: pkg.id, target, waves });
      expect(bad.statusCode, JSON.stringify(waves)).toBe(400);
      expect(errorsOf(bad)[0]).toMatch(/^waves/);
    }
    const unknown = await post('/api/rollouts/', { package_id: 999_999, target });
    expect(unknown.statusCode).toBe(400);
    expect(errorsOf(unknown)).toEqual(['package_id: no package with id 999999']);
    expect((await post('/api/rollouts/', { package_id: pkg.id, target, window: null })).statusCode).toBe(201);
  });

  it('is for agents only, inside their scope', async () => {
    const { target } = await terminals(1);
    for (const token of [company, site]) {
      expect((await post('/api/rollouts/', { package_id: pkg.id, target }, token)).statusCode).toBe(403);
      expect((await get('/api/rollouts/', token)).statusCode).toBe(403);
    }
    const outside = await post('/api/rollouts/', {
      package_id: pkg.id,
      target: { scope: { kind: 'site', id: f.outsider.siteId }, tags: [] },
    });
    expect(outside.statusCode).toBe(403);
    const r = await create({ target });
    for (const token of [company, site]) {
      expect((await get(`/api/rollouts/${r.id}/`, token)).statusCode).toBe(403);
      expect((await get(`/api/rollouts/${r.id}/terminals/`, token)).statusCode).toBe(403);
      expect((await post(`/api/rollouts/${r.id}/pause/`, undefined, token)).statusCode).toBe(403);
    }
    expect((await get('/api/rollouts/999999/')).statusCode).toBe(404);
    await post(`/api/rollouts/${r.id}/cancel/`);
    // Another agent's rollout: every call on it is 403 to this agent, and its list leaves it out.
    const other = await create({ target });
    await t.database.query(
      'update rollouts set agent_id = (select agent_id from terminals where id = $2) where id = $1',
      [other.id, f.outsider.terminalId],
    );
    expect((await get(`/api/rollouts/${other.id}/`)).statusCode).toBe(403);
    expect((await get(`/api/rollouts/${other.id}/terminals/`)).statusCode).toBe(403);
    for (const action of ['pause', 'resume', 'cancel'])
      expect((await post(`/api/rollouts/${other.id}/${action}/`)).statusCode).toBe(403);
    const listed = z.array(z.object({ id: z.number() })).parse((await get('/api/rollouts/')).json());
    expect(listed.map((x) => x.id)).not.toContain(other.id);
    await t.database.query('update rollouts set agent_id = $2 where id = $1', [other.id, agentId]);
    await post(`/api/rollouts/${other.id}/cancel/`);
  });

  it('skips terminals on the version, sends each wave its share, done only after the version report', async () => {
    const { ids, target } = await terminals(10);
    await t.database.query(`update terminals set software_version = $2 where id = any($1::int[])`, [
      ids.slice(8),
      VERSION,
    ]);
    const r = await create({ target, waves: [25, 100], wave_wait_s: 60 });
    expect(r.counts).toMatchObject({ pending: 8, skipped: 2 });
    await tick();
    let now = await rollout(r.id);
    // 25 % of the 8 to install: 2 terminals, the first by terminal order.
    expect(now.counts).toMatchObject({ pending: 6, sent: 2, skipped: 2 });
    expect(now.wave_counts?.[0]).toMatchObject({ wave: 1, percent: 25, sent: 2, skipped: 2 });
    const wave1 = (await rows(r.id))
      .filter((m) => m.wave === 1 && m.status === 'sent')
      .map((m) => m.terminal.id);
    expect(wave1.sort((a, b) => a - b)).toEqual(ids.slice(0, 2));

    const [c] = await fetchInstall(wave1[0]);
    expect(c).toMatchObject({
      kind: 'install',
      software_id: pkg.id,
      version: VERSION,
      sha256: pkg.sha256,
      size: pkg.size,
      url: `/api/device/v1/software/${pkg.id}`,
    });
    expect((await fetchInstall(wave1[0])).length).toBe(0);
    await tick();
    expect((await statusOf(r.id, wave1[0])).status).toBe('sent');
    await ack(wave1[0], c.id, 'ok');
    await tick();
    // Acknowledged but not yet running the version: installing.
    expect((await statusOf(r.id, wave1[0])).status).toBe('installing');
    await report(wave1[0]);
    await tick();
    expect((await statusOf(r.id, wave1[0])).status).toBe('done');
    expect((await statusOf(r.id, wave1[0])).from_version).toBe('1.0.0');

    await install(wave1[1]);
    await tick();
    now = await rollout(r.id);
    expect(now.counts).toMatchObject({ done: 2, pending: 6 });
    // Every terminal of wave 1 finished, but wave_wait_s has not passed since it began.
    expect(now.wave).toBe(1);
    await age(r.id, 61);
    await tick();
    now = await rollout(r.id);
    expect(now.wave).toBe(2);
    expect(now.counts).toMatchObject({ sent: 6, pending: 0, done: 2 });
    for (const id of ids.slice(2, 8)) await install(id);
    await tick();
    now = await rollout(r.id);
    expect(now.state).toBe('completed');
    expect(now.counts).toEqual({ pending: 0, sent: 0, installing: 0, done: 8, failed: 0, skipped: 2 });
    const audit = z
      .array(AuditEntrySchema)
      .parse((await get(`/api/admin/audit/?entity=rollout&entity_id=${r.id}`)).json());
    expect(audit.map((e) => e.action)).toEqual(['create']);
    // The console follows it live: 'fleet' changes of the agent and of each terminal that moved.
    const changes = await t.database.query<{ n: number | string }>(
      `select count(*) as n from changes where kind = 'fleet' and terminal_id = any($1::int[])`,
      [ids.slice(0, 8)],
    );
    expect(Number(changes[0].n)).toBeGreaterThanOrEqual(8);
    expect((await post(`/api/rollouts/${r.id}/resume/`)).statusCode).toBe(409);
  });

  it('fails a terminal for each cause: ack failed, no ack, never fetched, no version report, offline after the ack', async () => {
    const { ids, target } = await terminals(6);
    const [ackFailed, noAck, neverFetched, noReport, offline, doneOffline] = ids;
    const r = await create({ target, waves: [100], wave_wait_s: 30, max_failure_pct: 100 });
    await tick();
    expect((await rollout(r.id)).counts.sent).toBe(6);
    const [c1] = await fetchInstall(ackFailed);
    await ack(ackFailed, c1.id, 'failed', 'Checksum mismatch');
    await fetchInstall(noAck);
    const [c4] = await fetchInstall(noReport);
    await ack(noReport, c4.id, 'ok');
    const [c5] = await fetchInstall(offline);
    await ack(offline, c5.id, 'ok');
    await install(doneOffline);
    await tick();
    expect((await statusOf(r.id, ackFailed)).status).toBe('failed');
    expect((await statusOf(r.id, ackFailed)).detail).toBe('Checksum mismatch');
    expect((await statusOf(r.id, noReport)).status).toBe('installing');
    expect((await statusOf(r.id, doneOffline)).status).toBe('done');
    // Offline right after acknowledging (the watchdog's mark): the installing one and the done one fail.
    await t.database.query(
      `update terminals set connectivity = 'off', connectivity_changed_at = now() where id = any($1::int[])`,
      [[offline, doneOffline]],
    );
    await tick();
    expect((await statusOf(r.id, offline)).status).toBe('failed');
    expect((await statusOf(r.id, doneOffline)).status).toBe('failed');
    expect((await statusOf(r.id, doneOffline)).detail).toMatch(/offline/);
    expect((await statusOf(r.id, noAck)).status).toBe('sent');
    // wave_wait_s passes: nothing acknowledged, never fetched, never reported the version.
    await age(r.id, 31);
    await tick();
    const byId = new Map((await rows(r.id)).map((m) => [m.terminal.id, m]));
    expect(byId.get(noAck)).toMatchObject({
      status: 'failed',
      detail: 'Not acknowledged within 30 s of receiving the command',
    });
    expect(byId.get(neverFetched)).toMatchObject({
      status: 'failed',
      detail: 'Not fetched by the terminal within 30 s',
    });
    expect(byId.get(noReport)).toMatchObject({ status: 'failed' });
    expect(byId.get(noReport)?.detail).toMatch(/Did not report version 9\.9\.9 within 30 s/);
    const now = await rollout(r.id);
    expect(now.counts).toMatchObject({ failed: 6, done: 0 });
    expect(now.state).toBe('completed');
  });

  it('pauses by itself past max_failure_pct, sends nothing more until resumed', async () => {
    const { ids, target } = await terminals(4);
    const r = await create({ target, waves: [50, 100], wave_wait_s: 10, max_failure_pct: 20 });
    await tick();
    const [a, b] = ids;
    const [ca] = await fetchInstall(a);
    await ack(a, ca.id, 'failed', 'Disk full');
    await tick();
    let now = await rollout(r.id);
    expect(now.state).toBe('paused');
    expect(now.paused_reason).toBe(
      'Wave 1: 1 of 1 finished terminals failed (100%), more than max_failure_pct 20%',
    );
    // The rest of the wave goes on and is followed; nothing new is sent.
    await install(b);
    await age(r.id, 11);
    await tick();
    now = await rollout(r.id);
    expect(now).toMatchObject({ state: 'paused', wave: 1 });
    expect(now.counts).toMatchObject({ failed: 1, done: 1, pending: 2 });
    const resumed = await post(`/api/rollouts/${r.id}/resume/`);
    expect(resumed.statusCode, resumed.body).toBe(200);
    expect(RolloutSchema.parse(resumed.json())).toMatchObject({ state: 'running', paused_reason: null });
    await tick();
    now = await rollout(r.id);
    // The failure it was paused for is accepted: the next wave goes out.
    expect(now).toMatchObject({ state: 'running', wave: 2 });
    expect(now.counts).toMatchObject({ sent: 2 });
    const audit = z
      .array(AuditEntrySchema)
      .parse((await get(`/api/admin/audit/?entity=rollout&entity_id=${r.id}`)).json());
    expect(audit.map((e) => [e.action, e.user])).toEqual([
      ['resume', 'agent'],
      ['pause', 'system'],
      ['create', 'agent'],
    ]);
    await post(`/api/rollouts/${r.id}/cancel/`);
  });

  it('pauses and resumes by hand; cancelling withdraws the commands not yet fetched', async () => {
    const { ids, target } = await terminals(3);
    const r = await create({ target, waves: [100], wave_wait_s: 60 });
    const paused = RolloutSchema.parse((await post(`/api/rollouts/${r.id}/pause/`)).json());
    expect(paused).toMatchObject({ state: 'paused', paused_reason: 'Paused by agent' });
    await tick();
    expect((await rollout(r.id)).counts).toMatchObject({ pending: 3, sent: 0 });
    expect((await post(`/api/rollouts/${r.id}/resume/`)).statusCode).toBe(200);
    await tick();
    expect((await rollout(r.id)).counts.sent).toBe(3);
    const [fetched] = await fetchInstall(ids[0]);
    const cancelled = await post(`/api/rollouts/${r.id}/cancel/`);
    expect(cancelled.statusCode).toBe(200);
    expect(RolloutSchema.parse(cancelled.json())).toMatchObject({ state: 'cancelled' });
    // Not fetched: withdrawn, never handed out; the fetched one is still followed.
    expect(await fetchInstall(ids[1])).toEqual([]);
    const states = await t.database.query<{ terminal_id: number; state: string }>(
      `select c.terminal_id, c.state from commands c where c.kind = 'install' and c.terminal_id = any($1::int[])`,
      [ids],
    );
    expect(states.find((s) => Number(s.terminal_id) === ids[1])?.state).toBe('expired');
    await ack(ids[0], fetched.id, 'ok');
    await report(ids[0]);
    await tick();
    const now = await rollout(r.id);
    expect(now.state).toBe('cancelled');
    expect(now.counts).toMatchObject({ done: 1, pending: 2, sent: 0 });
    expect((await post(`/api/rollouts/${r.id}/resume/`)).statusCode).toBe(409);
    expect((await post(`/api/rollouts/${r.id}/pause/`)).statusCode).toBe(409);
    const audit = z
      .array(AuditEntrySchema)
      .parse((await get(`/api/admin/audit/?entity=rollout&entity_id=${r.id}`)).json());
    expect(audit.map((e) => e.action)).toEqual(['cancel', 'resume', 'pause', 'create']);
  });

  it("sends only inside each site's local window, also across midnight", async () => {
    const hour = new Date().getUTCHours();
    // Etc/GMT-N is N hours ahead of UTC: a zone where it is about noon now, and one where it is about midnight.
    const zone = (localHour: number) => {
      let ahead = (localHour - hour + 24) % 24;
      if (ahead > 12) ahead -= 24;
      return ahead === 0 ? 'Etc/GMT' : ahead > 0 ? `Etc/GMT-${ahead}` : `Etc/GMT+${-ahead}`;
    };
    const { ids, target } = await terminals(2, true);
    const [day, night] = ids;
    await t.database.query('update sites set timezone = $2 where id = $1', [siteOf.get(day), zone(12)]);
    await t.database.query('update sites set timezone = $2 where id = $1', [siteOf.get(night), zone(0)]);
    try {
      const office = await create({ target, waves: [100], window: { start: '09:00', end: '15:00' } });
      await tick();
      expect((await statusOf(office.id, day)).status).toBe('sent');
      expect((await statusOf(office.id, night)).status).toBe('pending');
      await post(`/api/rollouts/${office.id}/cancel/`);
      await t.database.query(
        `update commands set state = 'expired' where kind = 'install' and state in ('queued', 'sent')`,
      );
      const nightly = await create({ target, waves: [100], window: { start: '21:00', end: '03:00' } });
      await tick();
      expect((await statusOf(nightly.id, night)).status).toBe('sent');
      expect((await statusOf(nightly.id, day)).status).toBe('pending');
      await post(`/api/rollouts/${nightly.id}/cancel/`);
    } finally {
      await t.database.query(`update sites set timezone = 'UTC'`);
    }
  });
});
