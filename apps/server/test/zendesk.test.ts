import { TicketResponseSchema } from '@forecourt/contract/tickets';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { backoffDelay, startTicketForwarder } from '../src/services/zendesk.ts';
import { buildTestApp, postgresUnavailable, type TestApp } from './helper.ts';
import { type RecordedRequest, sendJson, startProviderServer, waitFor } from './provider-server.ts';

interface TicketRow {
  forward_state: string;
  attempts: number;
  zendesk_id: string | null;
  last_error: string | null;
}

describe.skipIf(postgresUnavailable)('tickets forwarded to Zendesk', () => {
  let zendesk: Awaited<ReturnType<typeof startProviderServer>>;
  /** What the stand-in Zendesk answers to the n-th request (0-based). */
  let answer: (
    n: number,
    req: RecordedRequest,
  ) => { status: number; body: unknown; headers?: Record<string, string> };
  let t: TestApp;
  let stop: () => Promise<void>;
  let token: string;

  beforeAll(async () => {
    zendesk = await startProviderServer((req, res) => {
      const a = answer(zendesk.requests.length - 1, req);
      sendJson(res, a.status, a.body, a.headers);
    });
    t = await buildTestApp({
      ZENDESK_URL: zendesk.url,
      ZENDESK_EMAIL: 'support@forecourt.test',
      ZENDESK_TOKEN: 'secret-token',
    });
    stop = startTicketForwarder(t.app, {
      baseDelayMs: 40,
      maxDelayMs: 200,
      maxAttempts: 4,
      pollMs: 100,
      timeoutMs: 2000,
    });
    token = await t.login('agent');
  });
  afterAll(async () => {
    await stop?.();
    await t?.close();
    await zendesk?.close();
  });
  afterEach(() => {
    zendesk.requests.length = 0;
  });

  async function openTicket(subject: string, body: string): Promise<number> {
    const res = await t.as(token, {
      method: 'POST',
      url: '/api/zendesk/ticket/',
      payload: { subject, body },
    });
    expect(res.statusCode).toBe(200);
    const parsed = TicketResponseSchema.parse(res.json());
    expect(parsed.error).toBe(false);
    return parsed.ticket_id!;
  }

  const row = async (id: number) =>
    (
      await t.database.query<TicketRow>(
        'select forward_state, attempts, zendesk_id, last_error from tickets where id = $1',
        [id],
      )
    )[0];
  const settled = (id: number) =>
    waitFor(async () => {
      const r = await row(id);
      return r.forward_state === 'forwarded' || r.forward_state === 'failed' ? r : null;
    });

  it('sends the ticket to the Tickets API with token auth and the requester', async () => {
    answer = () => ({ status: 201, body: { ticket: { id: 9001, subject: 'x' } } });
    const id = await openTicket('Terminal 0042 keeps rebooting', 'Since the update, every ten minutes.');
    const r = await settled(id);
    expect(r).toMatchObject({
      forward_state: 'forwarded',
      attempts: 1,
      zendesk_id: '9001',
      last_error: null,
    });

    expect(zendesk.requests).toHaveLength(1);
    const req = zendesk.requests[0];
    expect(req.method).toBe('POST');
    expect(req.path).toBe('/api/v2/tickets.json');
    expect(req.headers['content-type']).toContain('application/json');
    const [user] = await t.database.query<{ name: string; email: string }>(
      "select name, email from users where username = 'agent'",
    );
    expect(req.headers.authorization).toBe(
      `Basic ${Buffer.from('support@forecourt.test/token:secret-token').toString('base64')}`,
    );
    expect(JSON.parse(req.body)).toEqual({
      ticket: {
        subject: 'Terminal 0042 keeps rebooting',
        comment: { body: 'Since the update, every ten minutes.' },
        requester: { name: user.name || 'agent', email: user.email },
      },
    });
  });

  it('retries a failing help desk until it succeeds', async () => {
    answer = (n) =>
      n < 2
        ? { status: 503, body: { error: 'Service Unavailable' } }
        : { status: 201, body: { ticket: { id: 777 } } };
    const id = await openTicket('Retry me', 'Zendesk is down for a moment.');
    const r = await settled(id);
    expect(r).toMatchObject({ forward_state: 'forwarded', attempts: 3, zendesk_id: '777', last_error: null });
    expect(zendesk.requests).toHaveLength(3);
    for (const req of zendesk.requests) expect(JSON.parse(req.body).ticket.subject).toBe('Retry me');
  });

  it('gives up after the last attempt and keeps the error', async () => {
    answer = () => ({ status: 422, body: { error: 'RecordInvalid' } });
    const id = await openTicket('Never accepted', 'The help desk refuses this one.');
    const r = await settled(id);
    expect(r.forward_state).toBe('failed');
    expect(r.attempts).toBe(4);
    expect(r.zendesk_id).toBeNull();
    expect(r.last_error).toContain('422');
    expect(zendesk.requests).toHaveLength(4);
  });

  it('sends each ticket once when several arrive together', async () => {
    let next = 100;
    answer = () => ({ status: 201, body: { ticket: { id: next++ } } });
    const ids = await Promise.all([1, 2, 3, 4, 5].map((i) => openTicket(`Batch ${i}`, 'body')));
    const rows = await Promise.all(ids.map(settled));
    expect(rows.every((r) => r.forward_state === 'forwarded' && r.attempts === 1)).toBe(true);
    expect(new Set(rows.map((r) => r.zendesk_id)).size).toBe(5);
    expect(zendesk.requests.map((r) => JSON.parse(r.body).ticket.subject).sort()).toEqual([
      'Batch 1',
      'Batch 2',
      'Batch 3',
      'Batch 4',
      'Batch 5',
    ]);
  });

  it('doubles the delay after each failure, up to the cap', () => {
    expect([1, 2, 3, 4, 5].map((n) => backoffDelay(n, 1000, 10_000))).toEqual([
      1000, 2000, 4000, 8000, 10_000,
    ]);
  });
});

describe.skipIf(postgresUnavailable)('tickets without a help desk configured', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(async () => t?.close());

  it('stores the ticket without forwarding', async () => {
    const stop = startTicketForwarder(t.app, { pollMs: 50 });
    const token = await t.login('site');
    const res = await t.as(token, {
      method: 'POST',
      url: '/api/zendesk/ticket/',
      payload: { subject: 'Stored only', body: 'No Zendesk here.' },
    });
    const { ticket_id } = TicketResponseSchema.parse(res.json());
    await new Promise((r) => setTimeout(r, 200));
    const [r] = await t.database.query<TicketRow>(
      'select forward_state, attempts from tickets where id = $1',
      [ticket_id],
    );
    expect(r).toMatchObject({ forward_state: 'stored', attempts: 0 });
    await stop();
  });
});

describe.skipIf(postgresUnavailable)(
  'ticket forwarding across a restart and an unreachable help desk',
  () => {
    let zendesk: Awaited<ReturnType<typeof startProviderServer>>;
    let t: TestApp;
    let up = false;

    beforeAll(async () => {
      zendesk = await startProviderServer((_req, res) => {
        if (!up) {
          res.socket?.destroy();
          return;
        }
        sendJson(res, 201, { ticket: { id: 4242 } });
      });
      t = await buildTestApp({
        ZENDESK_URL: zendesk.url,
        ZENDESK_EMAIL: 'support@forecourt.test',
        ZENDESK_TOKEN: 'secret-token',
      });
    });
    afterAll(async () => {
      await t?.close();
      await zendesk?.close();
    });

    const state = async (id: number) =>
      (
        await t.database.query<TicketRow>(
          'select forward_state, attempts, zendesk_id, last_error from tickets where id = $1',
          [id],
        )
      )[0];

    it('forwards a ticket stored while no forwarder ran once one starts (the stored queue survives a restart)', async () => {
      up = true;
      const token = await t.login('company');
      const res = await t.as(token, {
        method: 'POST',
        url: '/api/zendesk/ticket/',
        payload: { subject: 'Stored before the restart', body: 'Forward me later.' },
      });
      const { ticket_id } = TicketResponseSchema.parse(res.json());
      expect(await state(ticket_id!)).toMatchObject({ forward_state: 'pending', attempts: 0 });
      expect(zendesk.requests).toHaveLength(0);

      const stop = startTicketForwarder(t.app, { baseDelayMs: 40, maxDelayMs: 200, pollMs: 100 });
      try {
        const r = await waitFor(async () => {
          const s = await state(ticket_id!);
          return s.forward_state === 'forwarded' ? s : null;
        });
        expect(r).toMatchObject({ attempts: 1, zendesk_id: '4242' });
      } finally {
        await stop();
      }
    });

    it('keeps a ticket pending with the error while the help desk cannot be reached, then forwards it', async () => {
      up = false;
      zendesk.requests.length = 0;
      const token = await t.login('site');
      const res = await t.as(token, {
        method: 'POST',
        url: '/api/zendesk/ticket/',
        payload: { subject: 'Network down', body: 'Zendesk unreachable for a while.' },
      });
      const { ticket_id } = TicketResponseSchema.parse(res.json());
      const stop = startTicketForwarder(t.app, {
        baseDelayMs: 40,
        maxDelayMs: 200,
        pollMs: 100,
        maxAttempts: 50,
      });
      try {
        const failing = await waitFor(async () => {
          const s = await state(ticket_id!);
          return s.attempts >= 2 ? s : null;
        });
        expect(failing.forward_state).toBe('pending');
        expect(failing.last_error).toBeTruthy();
        up = true;
        const done = await waitFor(async () => {
          const s = await state(ticket_id!);
          return s.forward_state === 'forwarded' ? s : null;
        });
        expect(done.zendesk_id).toBe('4242');
        expect(done.last_error).toBeNull();
      } finally {
        await stop();
      }
    });
  },
);
