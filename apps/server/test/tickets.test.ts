import { ErrorBodySchema } from '@forecourt/contract/common';
import { TicketResponseSchema } from '@forecourt/contract/tickets';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, postgresUnavailable, type TestApp } from './helper.ts';

const URL = '/api/zendesk/ticket/';

describe.skipIf(postgresUnavailable)('support tickets', () => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await buildTestApp();
    token = await t.login('company');
  });
  afterAll(async () => t?.close());

  const post = (payload: unknown) => t.as(token, { method: 'POST', url: URL, payload: payload as object });

  it('stores a ticket and answers error false with its id', async () => {
    const res = await post({ subject: 'Pump 3 will not start', body: 'Site 12, since this morning.' });
    expect(res.statusCode).toBe(200);
    const body = TicketResponseSchema.parse(res.json());
    expect(body).toMatchObject({ error: false, error_text: '' });
    expect(body.ticket_id).toBeGreaterThan(0);
    const [row] = await t.database.query<{
      subject: string;
      body: string;
      forward_state: string;
      user_id: number;
    }>('select subject, body, forward_state, user_id from tickets where id = $1', [body.ticket_id]);
    expect(row).toMatchObject({
      subject: 'Pump 3 will not start',
      body: 'Site 12, since this morning.',
      forward_state: 'stored',
    });
    const [user] = await t.database.query<{ id: number }>("select id from users where username = 'company'");
    expect(row.user_id).toBe(user.id);
  });

  it('checks the subject first: ERROR_NO_SUBJECT', async () => {
    for (const payload of [
      {},
      { body: 'text' },
      { subject: '   ', body: 'text' },
      { subject: '', body: '' },
    ]) {
      const res = await post(payload);
      expect(res.statusCode).toBe(400);
      const body = ErrorBodySchema.parse(res.json());
      expect(body.error).toBe(true);
      expect(body.error_text).toBe('ERROR_NO_SUBJECT');
      expect(body.data.errors[0]).toMatch(/^subject: /);
    }
  });

  it('then the body: ERROR_NO_BODY', async () => {
    for (const payload of [
      { subject: 'Help' },
      { subject: 'Help', body: '' },
      { subject: 'Help', body: ' \n ' },
    ]) {
      const res = await post(payload);
      expect(res.statusCode).toBe(400);
      const body = ErrorBodySchema.parse(res.json());
      expect(body).toMatchObject({ error: true, error_text: 'ERROR_NO_BODY' });
      expect(body.data.errors[0]).toMatch(/^body: /);
    }
  });

  it('names a field of the wrong type and stores nothing', async () => {
    const before = await t.database.query<{ n: number }>('select count(*)::int as n from tickets');
    const res = await post({ subject: 42, body: 'text' });
    expect(res.statusCode).toBe(400);
    const body = ErrorBodySchema.parse(res.json());
    expect(body.error).toBe(true);
    expect(body.data.errors.join(' ')).toContain('subject');
    const after = await t.database.query<{ n: number }>('select count(*)::int as n from tickets');
    expect(after[0].n).toBe(before[0].n);
  });

  it('refuses a caller without a token', async () => {
    const res = await t.app.inject({ method: 'POST', url: URL, payload: { subject: 'a', body: 'b' } });
    expect(res.statusCode).toBe(401);
    ErrorBodySchema.parse(res.json());
  });

  it('never answers 500 to fuzzed bodies', async () => {
    let seed = 7;
    const rand = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const values: unknown[] = [
      null,
      true,
      0,
      -1,
      1e308,
      '',
      'x',
      'ü'.repeat(300),
      'a'.repeat(25_000),
      [],
      ['x'],
      {},
      { nested: { deep: [1, 2] } },
    ];
    const pick = () => values[Math.floor(rand() * values.length)];
    const bodies: string[] = [
      '',
      'null',
      '[]',
      '"text"',
      '42',
      '{',
      '{"subject":',
      'not json',
      '{"subject":"a","body":"b"}x',
    ];
    for (let i = 0; i < 60; i++) {
      const obj: Record<string, unknown> = {};
      if (rand() < 0.8) obj.subject = pick();
      if (rand() < 0.8) obj.body = pick();
      if (rand() < 0.3) obj[`extra${i}`] = pick();
      bodies.push(JSON.stringify(obj));
    }
    for (const payload of bodies) {
      for (const contentType of ['application/json', 'text/plain']) {
        const res = await t.as(token, {
          method: 'POST',
          url: URL,
          payload,
          headers: { 'content-type': contentType },
        });
        expect(
          res.statusCode,
          `${contentType} ${payload.slice(0, 80)} → ${res.body.slice(0, 200)}`,
        ).toBeLessThan(500);
        expect([200, 400, 413, 415]).toContain(res.statusCode);
        if (res.statusCode === 200) TicketResponseSchema.parse(res.json());
        else ErrorBodySchema.parse(res.json());
      }
    }
  });
});
