import { ErrorBodySchema } from '@forecourt/contract/common';
import { TicketResponseSchema, TicketSchema } from '@forecourt/contract/tickets';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, postgresUnavailable, type TestApp } from './helper.ts';

describe.skipIf(postgresUnavailable)('reading a ticket back', () => {
  let t: TestApp;
  let company: string;
  let site: string;
  beforeAll(async () => {
    t = await buildTestApp();
    company = await t.login('company');
    site = await t.login('site');
  });
  afterAll(async () => t?.close());

  it('its author reads the ticket as stored', async () => {
    const created = await t.as(company, {
      method: 'POST',
      url: '/api/zendesk/ticket/',
      payload: { subject: '  Pump 2 stuck  ', body: 'It stays on.\nSince 9:00.' },
    });
    const { ticket_id } = TicketResponseSchema.parse(created.json());
    const res = await t.as(company, { method: 'GET', url: `/api/zendesk/ticket/${ticket_id}/` });
    expect(res.statusCode).toBe(200);
    const ticket = TicketSchema.parse(res.json());
    expect(ticket).toMatchObject({
      id: ticket_id,
      subject: 'Pump 2 stuck',
      body: 'It stays on.\nSince 9:00.',
      forward_state: 'stored',
    });
    expect(Date.parse(ticket.created_at)).toBeGreaterThan(Date.now() - 60_000);

    const other = await t.as(site, { method: 'GET', url: `/api/zendesk/ticket/${ticket_id}/` });
    expect(other.statusCode).toBe(403);
    ErrorBodySchema.parse(other.json());

    const anonymous = await t.app.inject({ method: 'GET', url: `/api/zendesk/ticket/${ticket_id}/` });
    expect(anonymous.statusCode).toBe(401);
  });

  it('an unknown or malformed id is 404', async () => {
    for (const id of ['999999', 'abc', '0', '-1', '99999999999']) {
      const res = await t.as(company, { method: 'GET', url: `/api/zendesk/ticket/${id}/` });
      expect(res.statusCode, id).toBe(404);
      expect(ErrorBodySchema.parse(res.json()).data.errors[0]).toBeTruthy();
    }
  });
});
