import { ErrorBodySchema } from '@forecourt/contract/common';
import { startSmtpServer } from '@forecourt/test-support/smtp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FleetFixture, fleetFixture, provisionDevice } from './fleet-fixture.ts';
import { buildTestApp, postgresUnavailable, type TestApp } from './helper.ts';
import { startTcpProxy } from './tcp-proxy.ts';

const MINUTE = 60_000;

/**
 * Alert mail (docs/product.md#alert-mail) against a real SMTP server: the job runs on an injected clock
 * (`app.alertMail.tick(at)`), so "15 minutes later" needs no waiting.
 */
describe.skipIf(postgresUnavailable)('alert mail', () => {
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
  let proxy: Awaited<ReturnType<typeof startTcpProxy>>;
  let t: TestApp;
  let f: FleetFixture;
  let agent: string;
  let agentEmail: string;
  let token: string;

  const event = (payload: unknown) =>
    t.app.inject({
      method: 'POST',
      url: '/api/device/v1/events',
      headers: { authorization: `Device ${token}` },
      payload: payload as object,
    });
  const mailsTo = (email: string) => smtp.mails.filter((m) => m.to.includes(email));

  beforeAll(async () => {
    smtp = await startSmtpServer();
    const port = Number(new URL(smtp.url).port);
    proxy = await startTcpProxy({ host: '127.0.0.1', port });
    t = await buildTestApp({ SMTP_URL: `smtp://127.0.0.1:${proxy.port}` });
    f = await fleetFixture(t.database);
    agent = await t.login('agent');
    agentEmail = (await t.as(agent, { method: 'GET', url: '/api/user/' })).json().email;
    token = await provisionDevice(t, agent, f.plainTerminalId);
  });
  afterAll(async () => {
    await t?.close();
    await proxy?.cut();
    await smtp?.close();
  });

  it('GET|PUT /api/user/notifications/ keeps the minimum severity; a bad value is 400 naming it', async () => {
    const start = await t.as(agent, { method: 'GET', url: '/api/user/notifications/' });
    expect(start.json()).toEqual({ email_min_severity: null });
    const bad = await t.as(agent, {
      method: 'PUT',
      url: '/api/user/notifications/',
      payload: { email_min_severity: 'urgent' },
    });
    expect(bad.statusCode).toBe(400);
    expect(ErrorBodySchema.parse(bad.json()).data.errors.join(' ')).toMatch(/email_min_severity must be/);
    const put = await t.as(agent, {
      method: 'PUT',
      url: '/api/user/notifications/',
      payload: { email_min_severity: 'critical' },
    });
    expect(put.statusCode).toBe(200);
    expect(put.json()).toEqual({ email_min_severity: 'critical' });
    expect((await t.as(agent, { method: 'GET', url: '/api/user/notifications/' })).json()).toEqual({
      email_min_severity: 'critical',
    });
    expect((await t.app.inject({ method: 'GET', url: '/api/user/notifications/' })).statusCode).toBe(401);
  });

  it('a critical alert mails once; a second within 15 minutes does not; the next mail lists it', async () => {
    const t0 = new Date(Date.now() + MINUTE);
    expect(
      (await event({ event_type: 14, text: 'Power supply failure: mains lost, running on battery' }))
        .statusCode,
    ).toBe(202);
    // Below the user's minimum: never mailed.
    expect((await event({ event_type: 2, text: 'Printer failure: paper jam' })).statusCode).toBe(202);
    expect(await t.app.alertMail.tick(t0)).toBe(1);
    const first = mailsTo(agentEmail);
    expect(first).toHaveLength(1);
    expect(first[0]!.text).toMatch(/Power supply failure: mains lost, running on battery/);
    expect(first[0]!.text).not.toMatch(/Printer failure/);

    expect((await event({ event_type: 15, text: 'Modem failure: SIM not detected' })).statusCode).toBe(202);
    expect(await t.app.alertMail.tick(new Date(t0.getTime() + 5 * MINUTE))).toBe(0);
    expect(await t.app.alertMail.tick(new Date(t0.getTime() + 14 * MINUTE))).toBe(0);
    expect(mailsTo(agentEmail)).toHaveLength(1);

    expect(await t.app.alertMail.tick(new Date(t0.getTime() + 15 * MINUTE + 1000))).toBe(1);
    const next = mailsTo(agentEmail);
    expect(next).toHaveLength(2);
    expect(next[1]!.text).toMatch(/Modem failure: SIM not detected/);
    expect(next[1]!.text).not.toMatch(/Power supply failure/);
    // Nothing left to send.
    expect(await t.app.alertMail.tick(new Date(t0.getTime() + 60 * MINUTE))).toBe(0);
  });

  it('a failed mail never blocks ingest and is retried', async () => {
    const t1 = new Date(Date.now() + 2 * 60 * MINUTE);
    await proxy.cut();
    const res = await event({ event_type: 3, text: 'Terminal offline: reported by the device' });
    expect(res.statusCode).toBe(202);
    const before = mailsTo(agentEmail).length;
    expect(await t.app.alertMail.tick(t1)).toBe(0);
    const failed = await t.database.query<{ attempts: number; last_error: string | null }>(
      'select attempts, last_error from alert_mails where sent_at is null',
    );
    expect(failed).toHaveLength(1);
    expect(failed[0]!.attempts).toBe(1);
    expect(failed[0]!.last_error).toBeTruthy();

    await proxy.restore();
    expect(await t.app.alertMail.tick(new Date(t1.getTime() + 5 * MINUTE))).toBe(1);
    const after = mailsTo(agentEmail);
    expect(after).toHaveLength(before + 1);
    expect(after.at(-1)!.text).toMatch(/Terminal offline: reported by the device/);
  });
});
