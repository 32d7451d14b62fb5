import { randomUUID } from 'node:crypto';
import http from 'node:http';
import net from 'node:net';
import { ErrorBodySchema } from '@forecourt/contract/common';
import { decodeChanges, decodeReset, LIVE_PATH, type LiveChange } from '@forecourt/contract/live';
import { DeviceTokenResponseSchema } from '@forecourt/contract/terminals';
import { createSigner } from 'fast-jwt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChangeInput } from '../src/repositories/change-repository.ts';
import { unitOfWork } from '../src/repositories/unit-of-work.ts';
import { type LiveStreams, liveStreamsOf } from '../src/services/live/hub.ts';
import { type FleetFixture, fleetFixture, settleCommands } from './fleet-fixture.ts';
import {
  buildTestApp,
  DEMO_PASSWORD,
  postgresUnavailable,
  TEST_JWT_SECRET,
  type TestApp,
  testDbKind,
} from './helper.ts';

/** One block of the event stream: a comment, or a message (`retry:` alone counts as a message too). */
interface Block {
  comment?: string;
  id?: string;
  event?: string;
  data?: string;
  retry?: string;
}

function parseBlock(text: string): Block {
  const block: Block = {};
  for (const line of text.split('\n')) {
    if (line.startsWith(':')) block.comment = line.slice(1).trim();
    else {
      const at = line.indexOf(':');
      const field = at < 0 ? line : line.slice(0, at);
      const value = at < 0 ? '' : line.slice(at + 1).replace(/^ /, '');
      if (field === 'id' || field === 'event' || field === 'data' || field === 'retry') block[field] = value;
    }
  }
  return block;
}

/** Waits until `check` holds, looking every 10 ms (the test's own timeout bounds it). */
async function until(check: () => boolean | Promise<boolean>) {
  while (!(await check())) await new Promise((r) => setTimeout(r, 10));
}

interface LiveClient {
  status: number;
  headers: Headers;
  blocks: Block[];
  /** The `change` messages so far, read with the contract's codec (which throws on anything it would not send). */
  messages(): Array<{ id: number; changes: LiveChange[] }>;
  /** The terminal ids of every change received so far (the tests mark their changes by terminal). */
  terminals(): number[];
  /** Resolves when the server ended the stream; rejects if it has not ended by then. */
  ended(): Promise<void>;
  isEnded(): boolean;
  /** Waits until `check` holds; fails at once if the stream ends first. */
  until(check: () => boolean): Promise<void>;
  close(): Promise<void>;
}

describe.skipIf(postgresUnavailable)(`GET /api/live (${testDbKind})`, () => {
  let t: TestApp;
  let f: FleetFixture;
  let base: string;
  let hub: LiveStreams;
  const token: Record<'agent' | 'company' | 'site', string> = { agent: '', company: '', site: '' };
  const userId: Record<'agent' | 'company' | 'site', number> = { agent: 0, company: 0, site: 0 };
  let agentId: number;
  /** Where things happen: the site user's site, another site of the company user, another company, an outsider. */
  const at: Record<
    'site' | 'companySite' | 'otherCompany' | 'outsider',
    Required<Omit<ChangeInput, 'kind' | 'pumpId' | 'userId'>>
  > = {} as never;
  /** Terminal ids that mark the changes the tests write (no such terminals exist: the feed has no foreign keys). */
  let nextMark = 800_000;
  const mark = () => nextMark++;

  const openLive = async (
    bearer: string | null,
    opts: { headers?: Record<string, string>; query?: string } = {},
  ): Promise<LiveClient> => {
    const abort = new AbortController();
    const res = await fetch(`${base}${LIVE_PATH}${opts.query ?? ''}`, {
      headers: { ...(bearer ? { authorization: `Bearer ${bearer}` } : {}), ...opts.headers },
      signal: abort.signal,
    });
    const blocks: Block[] = [];
    let done = false;
    let wake: Array<() => void> = [];
    const notify = () => {
      const w = wake;
      wake = [];
      for (const fn of w) fn();
    };
    const reading = (async () => {
      if (!res.body || res.status !== 200) return;
      const decoder = new TextDecoder();
      let buffer = '';
      try {
        for await (const chunk of res.body) {
          buffer += decoder.decode(chunk as Uint8Array, { stream: true });
          for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
            blocks.push(parseBlock(buffer.slice(0, end)));
            buffer = buffer.slice(end + 2);
          }
          notify();
        }
      } catch {
        // aborted by close()
      } finally {
        done = true;
        notify();
      }
    })();
    const next = () => new Promise<void>((resolve) => wake.push(resolve));
    const client: LiveClient = {
      status: res.status,
      headers: res.headers,
      blocks,
      messages: () =>
        blocks
          .filter((b) => b.event === 'change')
          .map((b) => ({ id: Number(b.id), changes: decodeChanges(b.data ?? '') })),
      terminals: () => client.messages().flatMap((m) => m.changes.map((c) => c.terminal ?? 0)),
      isEnded: () => done,
      async ended() {
        while (!done) await next();
      },
      async until(check) {
        while (!check()) {
          if (done) throw new Error(`the stream ended early; received ${JSON.stringify(blocks)}`);
          await next();
        }
      },
      async close() {
        abort.abort();
        await reading;
      },
    };
    return client;
  };

  /** Records changes as a write does (in one transaction) and wakes the feed. */
  const record = async (...changes: ChangeInput[]) => {
    await unitOfWork(t.database, (q) => q.changed(changes));
    t.app.feed.poke();
  };
  const maxChangeId = async () =>
    Number(
      (await t.database.query<{ max: string | number | null }>('select max(id) as max from changes'))[0].max,
    );

  const telemetryAt = (place: keyof typeof at, terminalId = mark()): ChangeInput => ({
    kind: 'telemetry',
    ...at[place],
    terminalId,
  });

  beforeAll(async () => {
    t = await buildTestApp();
    f = await fleetFixture(t.database);
    await settleCommands(t.database);
    await t.app.feed.ready;
    hub = liveStreamsOf(t.app.feed)!;
    for (const name of ['agent', 'company', 'site'] as const) {
      token[name] = await t.login(name);
      const rows = await t.database.query<{ id: number; agent_id: number | null }>(
        'select id, agent_id from users where username = $1',
        [name],
      );
      userId[name] = rows[0].id;
      if (name === 'agent') agentId = rows[0].agent_id!;
    }
    const sites = await t.database.query<{ id: number; company_id: number; agent_id: number }>(
      'select id, company_id, agent_id from sites where id = any($1::int[])',
      [[f.siteId, f.companySite.siteId, f.otherCompanySite.siteId, f.outsider.siteId]],
    );
    const place = (siteId: number) => {
      const s = sites.find((r) => r.id === siteId)!;
      return { agentId: s.agent_id, companyId: s.company_id, siteId: s.id, terminalId: 0 };
    };
    at.site = place(f.siteId);
    at.companySite = place(f.companySite.siteId);
    at.otherCompany = place(f.otherCompanySite.siteId);
    at.outsider = place(f.outsider.siteId);
    expect(at.site.agentId).toBe(agentId);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as net.AddressInfo).port}`;
  });
  afterAll(async () => {
    await t?.close();
  });

  it('answers 401 without a valid token and 400 naming a bad Last-Event-ID, as JSON errors', async () => {
    for (const headers of [{}, { authorization: 'Bearer not.a.token' }]) {
      const res = await t.app.inject({ method: 'GET', url: LIVE_PATH, headers });
      expect(res.statusCode).toBe(401);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      ErrorBodySchema.parse(res.json());
    }
    const header = await t.as(token.site, {
      method: 'GET',
      url: LIVE_PATH,
      headers: { 'last-event-id': 'abc' },
    });
    expect(header.statusCode).toBe(400);
    expect(ErrorBodySchema.parse(header.json()).data.errors.join(' ')).toContain('Last-Event-ID');
    // No HEAD: it would hold a stream that can send nothing.
    expect((await t.as(token.site, { method: 'HEAD', url: LIVE_PATH })).statusCode).toBe(404);
    const query = await t.as(token.site, { method: 'GET', url: `${LIVE_PATH}?last_event_id=-1` });
    expect(query.statusCode).toBe(400);
    expect(ErrorBodySchema.parse(query.json()).data.errors.join(' ')).toContain('last_event_id');
  });

  it('opens an uncompressed event stream with the security headers, then sends changes as they happen', async () => {
    const s = await openLive(token.site, { headers: { 'accept-encoding': 'gzip, deflate, br' } });
    try {
      expect(s.status).toBe(200);
      expect(s.headers.get('content-type')).toBe('text/event-stream');
      expect(s.headers.get('cache-control')).toBe('no-store');
      expect(s.headers.get('x-accel-buffering')).toBe('no');
      expect(s.headers.get('content-encoding')).toBeNull();
      expect(s.headers.get('x-content-type-options')).toBe('nosniff');
      expect(s.headers.get('content-security-policy')).toBeTruthy();
      await s.until(() => s.blocks.length >= 2);
      expect(s.blocks[0]).toEqual({ retry: '3000' });
      expect(s.blocks[1].comment).toMatch(/^live \d+$/);
      const terminal = mark();
      await record(telemetryAt('site', terminal));
      await s.until(() => s.terminals().includes(terminal));
      const [message] = s.messages();
      const change = message.changes[0];
      expect(change).toEqual({
        id: message.id,
        kind: 'telemetry',
        agent_id: at.site.agentId,
        company_id: at.site.companyId,
        site_id: at.site.siteId,
        terminal,
        at: expect.any(String),
      });
      expect(message.id).toBeGreaterThan(Number(s.blocks[1].comment!.split(' ')[1]));
    } finally {
      await s.close();
    }
  });

  it('sends each user only the changes of its scope, and never the internal kinds', async () => {
    const agent = await openLive(token.agent);
    const company = await openLive(token.company);
    const site = await openLive(token.site);
    const streams = [agent, company, site];
    try {
      await Promise.all(streams.map((s) => s.until(() => s.blocks.length >= 2)));
      const m = {
        site: mark(),
        companySite: mark(),
        otherCompany: mark(),
        outsider: mark(),
        agentOnly: mark(),
        companyOnly: mark(),
        siteOnly: mark(),
        noPlace: mark(),
        device: mark(),
        end: mark(),
      };
      await record(telemetryAt('site', m.site), telemetryAt('companySite', m.companySite));
      await record(
        { kind: 'alert', ...at.otherCompany, terminalId: m.otherCompany },
        { kind: 'shock', ...at.outsider, terminalId: m.outsider },
      );
      // A fleet change names only what it knows: it reaches the users of that agent or company only.
      await record(
        { kind: 'fleet', agentId, terminalId: m.agentOnly },
        { kind: 'fleet', companyId: at.site.companyId, terminalId: m.companyOnly },
        { kind: 'connectivity', siteId: at.site.siteId, terminalId: m.siteOnly },
        { kind: 'reboot', terminalId: m.noPlace },
      );
      await record(
        { kind: 'device', ...at.site, terminalId: m.device },
        { kind: 'session', ...at.site, userId: userId.site },
        { kind: 'session', userId: userId.agent },
      );
      await record(telemetryAt('site', m.end));
      await Promise.all(streams.map((s) => s.until(() => s.terminals().includes(m.end))));

      expect(agent.terminals()).toEqual([m.site, m.companySite, m.otherCompany, m.agentOnly, m.end]);
      expect(company.terminals()).toEqual([m.site, m.companySite, m.companyOnly, m.end]);
      expect(site.terminals()).toEqual([m.site, m.siteOnly, m.end]);
      for (const s of streams) {
        const ids = s.messages().flatMap((msg) => msg.changes.map((c) => c.id));
        expect(ids).toEqual([...ids].sort((a, b) => a - b));
        for (const msg of s.messages()) expect(msg.id).toBe(msg.changes[msg.changes.length - 1].id);
        // A session change for a user whose token is still valid leaves its stream open.
        expect(s.isEnded()).toBe(false);
      }
    } finally {
      await Promise.all(streams.map((s) => s.close()));
    }
  });

  it('carries a device write through the real path: telemetry posted by a terminal reaches its site', async () => {
    const provisioned = await t.as(token.agent, {
      method: 'POST',
      url: `/api/terminal/${f.plainTerminalId}/device-token/`,
    });
    const device = DeviceTokenResponseSchema.parse(provisioned.json()).token;
    const site = await openLive(token.site);
    const company = await openLive(token.company);
    /** The telemetry changes of the terminal a stream received (provisioning also sends a fleet change). */
    const telemetryOf = (s: LiveClient) =>
      s
        .messages()
        .flatMap((m) => m.changes)
        .filter((c) => c.kind === 'telemetry' && c.terminal === f.plainTerminalId);
    try {
      await site.until(() => site.blocks.length >= 2);
      await company.until(() => company.blocks.length >= 2);
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/device/v1/telemetry',
        headers: { authorization: `Device ${device}` },
        payload: { battery_life: 64 },
      });
      expect(res.statusCode).toBe(202);
      await site.until(() => telemetryOf(site).length > 0);
      expect(telemetryOf(site)[0]).toMatchObject({ site_id: f.siteId, agent_id: agentId });
      // The company user reaches the site through its company.
      await company.until(() => telemetryOf(company).length > 0);
    } finally {
      await site.close();
      await company.close();
    }
  });

  it("sends a quiet stream's change at once and puts the changes that follow within the window into one message with the last id", async () => {
    hub.configure({ batchMs: 2_000 });
    const s = await openLive(token.site);
    const twin = await openLive(token.site);
    try {
      await s.until(() => s.blocks.length >= 2);
      await twin.until(() => twin.blocks.length >= 2);
      const marks = [mark(), mark(), mark()];
      // A quiet stream sends a change at once...
      await record(telemetryAt('site', marks[0]));
      await s.until(() => s.terminals().length >= 1);
      // ...and what follows within the window (two more transactions, each read by the feed on its own) travels
      // together in one message.
      for (const m of marks.slice(1)) await record(telemetryAt('site', m));
      await s.until(() => s.terminals().length >= 3);
      const messages = s.messages();
      expect(messages.map((m) => m.changes.map((c) => c.terminal))).toEqual([
        [marks[0]],
        [marks[1], marks[2]],
      ]);
      expect(messages[1].id).toBe(messages[1].changes[1].id);
      // Another stream of the same scope gets the same message.
      await twin.until(() => twin.terminals().length >= 3);
      expect(twin.messages()).toEqual(messages);
    } finally {
      hub.configure({ batchMs: 250 });
      await s.close();
      await twin.close();
    }
  });

  it('resumes after Last-Event-ID with every change in scope, in order, none twice, while writes go on', async () => {
    const first = await openLive(token.company);
    await first.until(() => first.blocks.length >= 2);
    const from = Number(first.blocks[1].comment!.split(' ')[1]);
    let writing = true;
    const writer = (async () => {
      for (let i = 0; writing; i++) {
        await record(telemetryAt(i % 3 === 0 ? 'outsider' : i % 2 ? 'companySite' : 'site'));
        await new Promise((r) => setTimeout(r, 5));
      }
    })();
    try {
      await first.until(() => first.messages().length >= 2);
      await first.close();
      const lastId = first.messages().at(-1)!.id;
      // Missed for sure: written and read by the feed before the second stream opens.
      const missed = mark();
      await record(telemetryAt('companySite', missed));
      await until(async () => t.app.feed.cursor >= (await maxChangeId()));
      const second = await openLive(token.company, { headers: { 'last-event-id': String(lastId) } });
      try {
        await second.until(() => second.messages().length >= 2);
        writing = false;
        await writer;
        const end = mark();
        await record(telemetryAt('site', end));
        await second.until(() => second.terminals().includes(end));
        expect(second.blocks[1].comment).toMatch(/^live \d+$/);

        const received = [...first.messages(), ...second.messages()].flatMap((m) =>
          m.changes.map((c) => c.id),
        );
        const expected = await t.database.query<{ id: string | number }>(
          `select id from changes where id > $1 and kind <> 'session' and kind <> 'device'
              and company_id in (select company_id from user_companies where user_id = $2)
            order by id`,
          [from, userId.company],
        );
        expect(received).toEqual(expected.map((r) => Number(r.id)));
        expect(second.messages()[0].changes[0].id).toBeGreaterThan(lastId);
        // The backlog came first, with the missed change, up to the cursor the stream opened at.
        const openedAt = Number(second.blocks[1].comment!.split(' ')[1]);
        const backlog = second.messages()[0].changes;
        expect(backlog.map((c) => c.terminal)).toContain(missed);
        expect(backlog[0].id).toBeLessThanOrEqual(openedAt);
      } finally {
        await second.close();
      }
    } finally {
      writing = false;
      await writer;
      await first.close();
    }
  });

  it("names in each read's X-Live-Cursor a point to resume from: a stream resumed there is sent what the read predates", async () => {
    const get = (path: string) =>
      fetch(`${base}${path}`, { headers: { authorization: `Bearer ${token.company}` } });
    await until(async () => t.app.feed.cursor >= (await maxChangeId()));
    // A snapshot read and a plain one: each holds every change up to its cursor.
    const read = await get(`/api/company/${at.companySite.companyId}/sites/`);
    expect(read.status).toBe(200);
    const cursor = Number(read.headers.get('x-live-cursor'));
    expect(cursor).toBe(t.app.feed.cursor);
    const user = await get('/api/user/');
    expect(user.status).toBe(200);
    expect(Number(user.headers.get('x-live-cursor'))).toBe(cursor);
    // Not on errors, nor on anything but reads.
    const refused = await get(`/api/company/${at.otherCompany.companyId}/sites/`);
    expect(refused.status).toBe(403);
    expect(refused.headers.get('x-live-cursor')).toBeNull();
    const post = await t.app.inject({
      method: 'POST',
      url: '/api-token-verify/',
      payload: { token: token.company },
    });
    expect(post.headers['x-live-cursor']).toBeUndefined();

    const after = mark();
    await record(telemetryAt('companySite', after));
    await until(async () => t.app.feed.cursor >= (await maxChangeId()));
    // A snapshot built before the change and not touched by it keeps the cursor it was built at.
    const elsewhere = await get(`/api/company/${at.companySite.companyId}/sites/`);
    expect(Number(elsewhere.headers.get('x-live-cursor'))).toBeGreaterThanOrEqual(cursor);
    expect(Number(elsewhere.headers.get('x-live-cursor'))).toBeLessThanOrEqual(t.app.feed.cursor);
    const stream = await openLive(token.company, { headers: { 'last-event-id': String(cursor) } });
    try {
      await stream.until(() => stream.terminals().includes(after));
      expect(stream.messages()[0].changes[0].id).toBeGreaterThan(cursor);
    } finally {
      await stream.close();
    }
  });

  it('sends a long backlog as one message, in order, with the last id', async () => {
    await until(async () => t.app.feed.cursor >= (await maxChangeId()));
    const after = t.app.feed.cursor;
    const marks = Array.from({ length: 1_500 }, () => mark());
    await record(...marks.map((m) => telemetryAt('site', m)));
    await until(async () => t.app.feed.cursor >= (await maxChangeId()));
    const s = await openLive(token.site, { headers: { 'last-event-id': String(after) } });
    try {
      await s.until(() => s.terminals().length >= marks.length);
      const [message, ...rest] = s.messages();
      expect(rest).toEqual([]);
      expect(message.changes.map((c) => c.terminal)).toEqual(marks);
      expect(message.id).toBe(message.changes.at(-1)!.id);
    } finally {
      await s.close();
    }
  });

  it('also takes the resume point as ?last_event_id=', async () => {
    const a = mark();
    await record(telemetryAt('site', a));
    await until(async () => t.app.feed.cursor >= (await maxChangeId()));
    const after = t.app.feed.cursor;
    const b = mark();
    await record(telemetryAt('outsider'), telemetryAt('site', b));
    await until(async () => t.app.feed.cursor >= (await maxChangeId()));
    const s = await openLive(token.site, { query: `?last_event_id=${after}` });
    try {
      await s.until(() => s.terminals().includes(b));
      expect(s.terminals()).toEqual([b]);
    } finally {
      await s.close();
    }
  });

  it('waits for its own feed when Last-Event-ID is just ahead of it (the client came from a node that read further)', async () => {
    hub.configure({ catchUpMs: 20_000 });
    await until(async () => t.app.feed.cursor >= (await maxChangeId()));
    const cursor = t.app.feed.cursor;
    const opened = hub.stats.opened;
    const opening = openLive(token.site, { headers: { 'last-event-id': String(cursor + 1) } });
    // The stream has joined (and waits for the feed) before the change it is ahead of is written.
    await until(() => hub.stats.opened > opened);
    const marks = [mark(), mark()];
    await record(telemetryAt('site', marks[0]), telemetryAt('site', marks[1]));
    const s = await opening;
    try {
      await s.until(() => s.terminals().includes(marks[1]));
      const rows = await t.database.query<{ id: string | number; terminal_id: number }>(
        'select id, terminal_id from changes where terminal_id = any($1::int[]) order by id',
        [marks],
      );
      expect(s.terminals()).toEqual(rows.filter((r) => Number(r.id) > cursor + 1).map((r) => r.terminal_id));
      expect(s.blocks.some((b) => b.event === 'reset')).toBe(false);
      expect(s.blocks[1].comment).toBe(`live ${cursor + 1}`);
    } finally {
      hub.configure({ catchUpMs: 2_000 });
      await s.close();
    }
  });

  it('answers reset when the id is ahead of the feed or older than it keeps, then goes on live', async () => {
    hub.configure({ catchUpMs: 100 });
    await until(async () => t.app.feed.cursor >= (await maxChangeId()));
    const cursor = t.app.feed.cursor;
    const ahead = await openLive(token.site, { headers: { 'last-event-id': String(cursor + 1000) } });
    hub.configure({ catchUpMs: 2_000 });
    try {
      await ahead.until(() => ahead.blocks.some((b) => b.event === 'reset'));
      const reset = ahead.blocks.find((b) => b.event === 'reset')!;
      expect(ahead.blocks.indexOf(reset)).toBe(2);
      const { id } = decodeReset(reset.data!);
      expect(reset.id).toBe(String(id));
      expect(id).toBeGreaterThanOrEqual(cursor);
      const live = mark();
      await record(telemetryAt('site', live));
      await ahead.until(() => ahead.terminals().includes(live));
    } finally {
      await ahead.close();
    }

    const before = await t.database.query<{ pruned_through: string | number }>(
      'select pruned_through from change_feed_state where id = 1',
    );
    await t.database.query('update change_feed_state set pruned_through = $1 where id = 1', [cursor]);
    try {
      const old = await openLive(token.site, { query: `?last_event_id=${cursor - 2}` });
      try {
        await old.until(() => old.blocks.some((b) => b.event === 'reset'));
        expect(old.messages()).toEqual([]);
      } finally {
        await old.close();
      }
    } finally {
      await t.database.query('update change_feed_state set pruned_through = $1 where id = 1', [
        Number(before[0].pruned_through),
      ]);
    }
  });

  it(`caps the open streams of one user on this node (429 with the error body)`, async () => {
    await until(() => hub.countOf(userId.site) === 0);
    const max = hub.settings.maxPerUser;
    const open: LiveClient[] = [];
    try {
      for (let i = 0; i < max; i++) open.push(await openLive(token.site));
      expect(open.every((s) => s.status === 200)).toBe(true);
      const refused = await fetch(`${base}${LIVE_PATH}`, {
        headers: { authorization: `Bearer ${token.site}` },
      });
      expect(refused.status).toBe(429);
      expect(ErrorBodySchema.parse(await refused.json()).data.errors[0]).toContain(String(max));
      // Another user is not affected.
      const other = await openLive(token.company);
      expect(other.status).toBe(200);
      await other.close();
      // Closing one makes room.
      await open.pop()!.close();
      await until(() => hub.countOf(userId.site) < max);
      open.push(await openLive(token.site));
      expect(open.at(-1)!.status).toBe(200);
    } finally {
      await Promise.all(open.map((s) => s.close()));
    }
  });

  /** The status of GET /api/live opened from another local address (127.0.0.2: the loopback takes any 127/8). */
  const statusFrom = (localAddress: string, bearer: string) =>
    new Promise<{ status: number; close: () => void }>((resolve, reject) => {
      const req = http.get(`${base}${LIVE_PATH}`, {
        localAddress,
        headers: { authorization: `Bearer ${bearer}` },
      });
      req.on('response', (res) => resolve({ status: res.statusCode ?? 0, close: () => req.destroy() }));
      req.on('error', reject);
    });

  it('caps the open streams of one client address whoever signed in (429 with the error body); X-Forwarded-For is not believed without TRUST_PROXY', async () => {
    await until(() => hub.size === 0);
    hub.configure({ maxPerAddress: 4 });
    const open: LiveClient[] = [];
    try {
      // Three users, one address: each well under its own cap, together at the address's.
      for (const [i, name] of (['agent', 'company', 'site', 'site'] as const).entries()) {
        open.push(await openLive(token[name], { headers: { 'x-forwarded-for': `203.0.113.${i + 1}` } }));
      }
      expect(open.map((s) => s.status)).toEqual([200, 200, 200, 200]);
      const refused = await fetch(`${base}${LIVE_PATH}`, {
        headers: { authorization: `Bearer ${token.company}`, 'x-forwarded-for': '203.0.113.99' },
      });
      expect(refused.status).toBe(429);
      const message = ErrorBodySchema.parse(await refused.json()).data.errors[0];
      expect(message).toContain('at most 4');
      expect(message).toContain('address');
      // Another address still gets a stream, for the same user.
      const elsewhere = await statusFrom('127.0.0.2', token.company);
      expect(elsewhere.status).toBe(200);
      elsewhere.close();
      // Closing one makes room.
      await open.pop()!.close();
      await until(() => hub.size === 3);
      open.push(await openLive(token.company));
      expect(open.at(-1)!.status).toBe(200);
    } finally {
      await Promise.all(open.map((s) => s.close()));
      hub.configure({ maxPerAddress: t.app.config.LIVE_MAX_STREAMS_PER_ADDRESS });
    }
  });

  const freshToken = async (username: string) => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { username, password: DEMO_PASSWORD },
    });
    return res.json().token as string;
  };

  it('ends the stream when its token is signed out, and only that one', async () => {
    const doomed = await freshToken('company');
    const s = await openLive(doomed);
    const other = await openLive(token.company);
    try {
      await s.until(() => s.blocks.length >= 2);
      const out = await t.app.inject({ method: 'POST', url: '/auth/sign-out', payload: { token: doomed } });
      expect(out.statusCode).toBe(200);
      await s.ended();
      expect(
        (await fetch(`${base}${LIVE_PATH}`, { headers: { authorization: `Bearer ${doomed}` } })).status,
      ).toBe(401);
      const end = mark();
      await record(telemetryAt('site', end));
      await other.until(() => other.terminals().includes(end));
    } finally {
      await s.close();
      await other.close();
    }
  });

  it('ends the streams of a user disabled or whose password changed, at the session change that says so', async () => {
    const [before] = await t.database.query<{ password_changed_at: Date }>(
      'select password_changed_at from users where id = $1',
      [userId.company],
    );
    const cases = [
      {
        write: 'update users set disabled_at = now() where id = $1',
        undo: 'update users set disabled_at = null where id = $1',
      },
      {
        write: "update users set password_changed_at = now() + interval '1 minute' where id = $1",
        undo: 'update users set password_changed_at = $2 where id = $1',
      },
    ];
    for (const { write, undo } of cases) {
      const s = await openLive(await freshToken('company'));
      const bystander = await openLive(token.agent);
      try {
        await s.until(() => s.blocks.length >= 2);
        // As the administration and password routes do: the write and a 'session' change in one transaction.
        await unitOfWork(t.database, async (q) => {
          await q(write, [userId.company]);
          await q.changed([{ kind: 'session', userId: userId.company }]);
        });
        t.app.feed.poke();
        await s.ended();
        const end = mark();
        await record(telemetryAt('site', end));
        await bystander.until(() => bystander.terminals().includes(end));
      } finally {
        await t.database.query(
          undo,
          undo.includes('$2') ? [userId.company, before.password_changed_at] : [userId.company],
        );
        await record({ kind: 'session', userId: userId.company });
        // Every cache has dropped the changed user before the next case signs in.
        await until(async () => t.app.feed.cursor >= (await maxChangeId()));
        t.app.repos.principals.forget(userId.company);
        await s.close();
        await bystander.close();
      }
    }
  });

  it('follows a change of the user’s rights without reconnecting (a session change)', async () => {
    const s = await openLive(token.site);
    try {
      await s.until(() => s.blocks.length >= 2);
      await t.database.query('insert into user_sites (user_id, site_id) values ($1, $2)', [
        userId.site,
        at.companySite.siteId,
      ]);
      await record({ kind: 'session', userId: userId.site });
      const granted = mark();
      // The re-check runs after the session change; write until the new site's changes arrive.
      await until(async () => {
        if (s.terminals().includes(granted)) return true;
        await record(telemetryAt('companySite', granted));
        await new Promise((r) => setTimeout(r, 50));
        return s.terminals().includes(granted);
      });
      expect(s.isEnded()).toBe(false);
    } finally {
      await t.database.query('delete from user_sites where user_id = $1 and site_id = $2', [
        userId.site,
        at.companySite.siteId,
      ]);
      await record({ kind: 'session', userId: userId.site });
      await s.close();
    }
  });

  it('ends the stream when its token expires', async () => {
    const now = Math.floor(Date.now() / 1000);
    const signer = createSigner({ key: TEST_JWT_SECRET, algorithm: 'HS256' });
    const shortLived = signer({
      sub: String(userId.site),
      username: 'site',
      jti: randomUUID(),
      iat: now,
      exp: now + 3,
    });
    const s = await openLive(shortLived);
    expect(s.status).toBe(200);
    await s.ended();
    expect(hub.stats.ended.expired).toBeGreaterThan(0);
  });

  it('sends a heartbeat comment at the configured interval', async () => {
    hub.configure({ heartbeatMs: 50 });
    const s = await openLive(token.site);
    try {
      await s.until(() => s.blocks.some((b) => b.comment === 'ping'));
      expect(s.blocks.slice(0, 2)).toEqual([
        { retry: '3000' },
        { comment: expect.stringMatching(/^live \d+$/) },
      ]);
    } finally {
      hub.configure({ heartbeatMs: 15_000 });
      await s.close();
    }
  });

  it('drops a client that does not read once its unsent bytes pass the limit', async () => {
    hub.configure({ maxBufferedBytes: 64 * 1024 });
    const dropped = hub.stats.ended.slow;
    const socket = net.connect((t.app.server.address() as net.AddressInfo).port, '127.0.0.1');
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    let closed = false;
    socket.on('close', () => {
      closed = true;
    });
    socket.on('error', () => {});
    socket.write(
      `GET ${LIVE_PATH} HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${token.agent}\r\n\r\n`,
    );
    socket.pause();
    try {
      await until(() => hub.countOf(userId.agent) === 1);
      // Write until the stream backs up past the kernel's buffers and the limit (each round ~0.5 MB on the wire).
      for (let round = 0; round < 100 && hub.stats.ended.slow === dropped; round++) {
        const changes: ChangeInput[] = [];
        for (let i = 0; i < 5_000; i++) changes.push(telemetryAt('otherCompany'));
        await record(...changes);
        await until(async () => t.app.feed.cursor >= (await maxChangeId()));
        await new Promise((r) => setTimeout(r, 300));
      }
      expect(hub.stats.ended.slow).toBe(dropped + 1);
      expect(hub.countOf(userId.agent)).toBe(0);
      socket.resume();
      await until(() => closed);
    } finally {
      hub.configure({ maxBufferedBytes: 1024 * 1024 });
      socket.destroy();
    }
  });
});

describe.skipIf(postgresUnavailable)(`GET /api/live when the node closes (${testDbKind})`, () => {
  it('ends every open stream, so the shutdown is not held', async () => {
    const t = await buildTestApp();
    let closed = false;
    try {
      await t.app.feed.ready;
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      const port = (t.app.server.address() as net.AddressInfo).port;
      const agent = await t.login('agent');
      const res = await fetch(`http://127.0.0.1:${port}${LIVE_PATH}`, {
        headers: { authorization: `Bearer ${agent}` },
      });
      expect(res.status).toBe(200);
      const reading = (async () => {
        let text = '';
        for await (const chunk of res.body!) text += Buffer.from(chunk as Uint8Array).toString();
        return text;
      })();
      await until(() => (liveStreamsOf(t.app.feed)?.size ?? 0) === 1);
      await t.app.close();
      closed = true;
      expect(await reading).toMatch(/^retry: 3000\n\n: live \d+\n\n/);
      expect(liveStreamsOf(t.app.feed)!.size).toBe(0);
    } finally {
      if (closed) await t.database.close();
      else await t.close();
    }
  });
});

describe.skipIf(postgresUnavailable)(`GET /api/live behind a proxy (${testDbKind})`, () => {
  it('caps the streams of the client X-Forwarded-For names when TRUST_PROXY trusts the peer (LIVE_MAX_STREAMS_PER_ADDRESS)', async () => {
    const t = await buildTestApp({ TRUST_PROXY: 'loopback', LIVE_MAX_STREAMS_PER_ADDRESS: '3' });
    const held: Response[] = [];
    const aborts: AbortController[] = [];
    try {
      await t.app.feed.ready;
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      const base = `http://127.0.0.1:${(t.app.server.address() as net.AddressInfo).port}`;
      const open = (bearer: string, client: string) => {
        const abort = new AbortController();
        aborts.push(abort);
        return fetch(`${base}${LIVE_PATH}`, {
          headers: { authorization: `Bearer ${bearer}`, 'x-forwarded-for': client },
          signal: abort.signal,
        });
      };
      const tokens = [await t.login('agent'), await t.login('company'), await t.login('site')];
      for (const bearer of tokens) held.push(await open(bearer, '198.51.100.20'));
      expect(held.map((r) => r.status)).toEqual([200, 200, 200]);
      const refused = await open(tokens[0], '198.51.100.20');
      expect(refused.status).toBe(429);
      expect(ErrorBodySchema.parse(await refused.json()).data.errors[0]).toContain('at most 3');
      // Another client behind the same proxy is not affected.
      const other = await open(tokens[0], '198.51.100.21');
      expect(other.status).toBe(200);
      expect(liveStreamsOf(t.app.feed)!.countFrom('198.51.100.20')).toBe(3);
    } finally {
      for (const abort of aborts) abort.abort();
      await t.close();
    }
  });
});
