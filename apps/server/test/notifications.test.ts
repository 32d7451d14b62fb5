import { createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { AuditEntrySchema } from '@forecourt/contract/admin';
import { ErrorBodySchema } from '@forecourt/contract/common';
import {
  ContactPointCreatedSchema,
  ContactPointSchema,
  DeliverySchema,
  NotificationPolicySchema,
} from '@forecourt/contract/notifications';
import { startSmtpServer } from '@forecourt/test-support/smtp';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { deviceCall, type FleetSession, openFleetSession, provisionDevice } from './fleet-fixture.ts';
import { postgresUnavailable } from './helper.ts';

const errorsOf = (res: { json(): unknown }) => ErrorBodySchema.parse(res.json()).data.errors;
const Deliveries = z.array(DeliverySchema);

interface Received {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/**
 * A webhook receiver on 127.0.0.2 (a loopback address the test's WEBHOOK_ALLOWED_HOSTS lets through, while
 * 127.0.0.1 and `localhost` stay refused): `/ok` answers 204, `/flaky` 500 until told otherwise, `/redirect` 302.
 */
async function startReceiver() {
  const received: Received[] = [];
  let flakyFailures = 1;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = req.url ?? '/';
      received.push({ path, headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      if (path.startsWith('/flaky') && flakyFailures > 0) {
        flakyFailures--;
        res.writeHead(500).end('internal detail that must not be echoed');
      } else if (path.startsWith('/redirect')) {
        res.writeHead(302, { location: 'http://127.0.0.1/' }).end();
      } else res.writeHead(path.startsWith('/ok') ? 204 : 200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.2', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: (path: string) => `http://127.0.0.2:${port}${path}`,
    received,
    failNext(n: number) {
      flakyFailures = n;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe.skipIf(postgresUnavailable)('notifications: contact points, policies, deliveries', () => {
  let { t, f, agent, company, site, agentId, companyId } = {} as FleetSession;
  let device: string;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>;

  const as = (token: string, opts: InjectOptions) => t.as(token, opts);
  const post = (url: string, payload: unknown, token = agent) =>
    as(token, { method: 'POST', url, payload: payload as object });
  const patch = (url: string, payload: unknown, token = agent) =>
    as(token, { method: 'PATCH', url, payload: payload as object });
  const get = (url: string, token = agent) => as(token, { method: 'GET', url });
  const del = (url: string, token = agent) => as(token, { method: 'DELETE', url });
  const terminalTarget = { scope: { kind: 'terminal', id: 0 }, tags: [] as string[] };
  const inS = (s: number) => new Date(Date.now() + s * 1000);

  async function contactPoint(body: Record<string, unknown>, token = agent) {
    const res = await post('/api/contact-points/', body, token);
    expect(res.statusCode, res.body).toBe(201);
    return ContactPointCreatedSchema.parse(res.json());
  }
  async function policy(body: Record<string, unknown>, token = agent) {
    const res = await post('/api/notification-policies/', { target: terminalTarget, ...body }, token);
    expect(res.statusCode, res.body).toBe(201);
    return NotificationPolicySchema.parse(res.json());
  }
  async function deliveries(query: string) {
    const res = await get(`/api/notification-deliveries/?${query}`);
    expect(res.statusCode, res.body).toBe(200);
    return Deliveries.parse(res.json());
  }
  /** Raises an alert at the test terminal through the device API; answers its id. */
  async function raise(eventType = 12, text = 'Printer error: paper jam') {
    const res = await deviceCall(t, device, 'POST', 'events', { event_type: eventType, text });
    expect(res.statusCode, res.body).toBe(202);
    const [row] = await t.database.query<{ id: number }>(
      'select id from alerts where terminal_id = $1 and event_type = $2 order by id desc limit 1',
      [f.plainTerminalId, eventType],
    );
    return Number(row!.id);
  }
  const verify = (secret: string, r: Received) =>
    r.headers['x-forecourt-signature'] ===
    `sha256=${createHmac('sha256', secret).update(`${r.headers['x-forecourt-timestamp']}.${r.body}`).digest('hex')}`;
  /** Deletes every policy, so a test starts with none matching. */
  const noPolicies = () => t.database.query('delete from notification_policies');

  beforeAll(async () => {
    receiver = await startReceiver();
    smtp = await startSmtpServer();
    ({ t, f, agent, company, site, agentId, companyId } = await openFleetSession({
      WEBHOOK_ALLOWED_HOSTS: '127.0.0.2',
      DELIVERY_RETRY_DELAYS: '5,5',
      SMTP_URL: smtp.url,
      PUBLIC_URL: 'https://console.example',
    }));
    terminalTarget.scope.id = f.plainTerminalId;
    device = await provisionDevice(t, agent, f.plainTerminalId);
    expect((await deviceCall(t, device, 'GET', 'me')).statusCode).toBe(200);
  });
  afterAll(async () => {
    await t?.close();
    await receiver?.close();
    await smtp?.close();
  });

  it('contact points: the secret is shown once, the owner defaults to the caller, scope is enforced, audited', async () => {
    const hook = await contactPoint({ name: 'Ops hook', kind: 'webhook', url: receiver.url('/ok') });
    expect(hook).toMatchObject({ kind: 'webhook', has_secret: true, owner: { kind: 'agent', id: agentId } });
    expect(hook.secret).toMatch(/^[A-Za-z0-9_-]{40,}$/);
    const read = await get(`/api/contact-points/${hook.id}/`);
    expect(read.statusCode).toBe(200);
    expect(read.json()).not.toHaveProperty('secret');
    expect(ContactPointSchema.parse(read.json()).url).toBe(receiver.url('/ok'));

    const mine = await contactPoint(
      { name: 'Company mail', kind: 'email', addresses: ['ops@example.com'] },
      company,
    );
    expect(mine).toMatchObject({ owner: { kind: 'company', id: companyId }, has_secret: false, url: null });
    expect((await get(`/api/contact-points/${hook.id}/`, company)).statusCode).toBe(403);
    expect((await patch(`/api/contact-points/${hook.id}/`, { name: 'x' }, company)).statusCode).toBe(403);
    const listed = z.array(ContactPointSchema).parse((await get('/api/contact-points/', company)).json());
    expect(listed.map((c) => c.id)).toContain(mine.id);
    expect(listed.map((c) => c.id)).not.toContain(hook.id);
    // The agent manages everything under it, the company's too.
    expect((await get(`/api/contact-points/${mine.id}/`)).statusCode).toBe(200);
    // Owners outside the caller's scope, and site users: 403.
    const above = await post(
      '/api/contact-points/',
      { name: 'x', kind: 'email', addresses: ['a@example.com'], owner: { kind: 'agent', id: agentId } },
      company,
    );
    expect(above.statusCode).toBe(403);
    const outsider = await post('/api/contact-points/', {
      name: 'x',
      kind: 'email',
      addresses: ['a@example.com'],
      owner: { kind: 'site', id: f.outsider.siteId },
    });
    expect(outsider.statusCode).toBe(403);
    expect((await get('/api/contact-points/', site)).statusCode).toBe(403);
    expect((await post('/api/contact-points/', { name: 'x' }, site)).statusCode).toBe(403);
    expect((await get('/api/notification-policies/', site)).statusCode).toBe(403);
    expect((await get('/api/notification-deliveries/', site)).statusCode).toBe(403);
    expect((await get('/api/contact-points/')).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/api/contact-points/' })).statusCode).toBe(401);

    const renamed = await patch(`/api/contact-points/${mine.id}/`, { name: 'Company ops mail' }, company);
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json().name).toBe('Company ops mail');
    expect((await del(`/api/contact-points/${mine.id}/`, company)).statusCode).toBe(200);
    expect((await get(`/api/contact-points/${mine.id}/`, company)).statusCode).toBe(404);
    expect((await get('/api/contact-points/abc/')).statusCode).toBe(404);
    const audit = z
      .array(AuditEntrySchema)
      .parse((await get(`/api/admin/audit/?entity=contact_point&entity_id=${mine.id}`)).json());
    expect(audit.map((e) => e.action)).toEqual(['delete', 'update', 'create']);
    expect(JSON.stringify(audit)).not.toContain('secret":"');
  });

  it('answers 400 naming every bad field', async () => {
    const bad = await post('/api/contact-points/', { name: '', kind: 'pager', url: 'x' });
    expect(bad.statusCode).toBe(400);
    const text = errorsOf(bad).join(' | ');
    expect(text).toContain('name');
    expect(text).toContain('kind');
    const noAddresses = await post('/api/contact-points/', { name: 'm', kind: 'email' });
    expect(errorsOf(noAddresses).join()).toContain('addresses');
    const badAddress = await post('/api/contact-points/', { name: 'm', kind: 'email', addresses: ['nope'] });
    expect(errorsOf(badAddress).join()).toContain('addresses');
    const noUrl = await post('/api/contact-points/', { name: 'w', kind: 'slack' });
    expect(errorsOf(noUrl).join()).toContain('url');
    const ftp = await post('/api/contact-points/', {
      name: 'w',
      kind: 'webhook',
      url: 'ftp://example.com/x',
    });
    expect(ftp.statusCode).toBe(400);
    expect(errorsOf(ftp).join()).toContain('url');
    const shortSecret = await post('/api/contact-points/', {
      name: 'w',
      kind: 'webhook',
      url: receiver.url('/ok'),
      secret: 'short',
    });
    expect(errorsOf(shortSecret).join()).toContain('secret');

    const cp = await contactPoint({ name: 'p', kind: 'webhook', url: receiver.url('/ok') });
    const badPolicy = await post('/api/notification-policies/', {
      name: '',
      target: { scope: { kind: 'galaxy', id: 1 } },
      min_severity: 'urgent',
      contact_point_ids: [],
      escalate_after_s: -5,
      event_types: ['x'],
    });
    expect(badPolicy.statusCode).toBe(400);
    const all = errorsOf(badPolicy).join(' | ');
    for (const field of [
      'name',
      'target',
      'min_severity',
      'contact_point_ids',
      'escalate_after_s',
      'event_types',
    ])
      expect(all).toContain(field);
    const unknown = await post('/api/notification-policies/', {
      name: 'x',
      target: terminalTarget,
      contact_point_ids: [999999],
    });
    expect(unknown.statusCode).toBe(400);
    expect(errorsOf(unknown).join()).toContain('contact_point_ids');
    const outside = await post('/api/notification-policies/', {
      name: 'x',
      target: { scope: { kind: 'site', id: f.outsider.siteId }, tags: [] },
      contact_point_ids: [cp.id],
    });
    expect(outside.statusCode).toBe(403);
    // A company user may not send to the agent's contact point.
    const foreign = await post(
      '/api/notification-policies/',
      { name: 'x', target: { scope: { kind: 'site', id: f.siteId }, tags: [] }, contact_point_ids: [cp.id] },
      company,
    );
    expect(foreign.statusCode).toBe(400);
    expect(errorsOf(foreign).join()).toContain('contact_point_ids');
  });

  it('refuses URLs at internal addresses (SSRF), at creation and when changed', async () => {
    for (const url of [
      'http://127.0.0.1:9/hook',
      'http://10.1.2.3/hook',
      'http://169.254.169.254/latest/meta-data/',
      'http://[::1]/hook',
      'http://[::ffff:127.0.0.1]/hook',
      'http://localhost:9/hook',
      'https://192.168.1.10/hook',
      'http://0.0.0.0/',
      'http://[fd00::1]/',
    ]) {
      const res = await post('/api/contact-points/', { name: 'evil', kind: 'webhook', url });
      expect(res.statusCode, url).toBe(400);
      expect(errorsOf(res).join(), url).toMatch(/^url /);
    }
    const cp = await contactPoint({ name: 'ok', kind: 'slack', url: receiver.url('/ok') });
    const moved = await patch(`/api/contact-points/${cp.id}/`, { url: 'http://169.254.169.254/' });
    expect(moved.statusCode).toBe(400);
    expect(errorsOf(moved).join()).toContain('url');
  });

  it('a test sends now and answers the delivery; a redirect is a failure, never followed', async () => {
    const cp = await contactPoint({ name: 'Test hook', kind: 'webhook', url: receiver.url('/ok/test') });
    const res = await post(`/api/contact-points/${cp.id}/test/`, {});
    expect(res.statusCode, res.body).toBe(200);
    const d = DeliverySchema.parse(res.json());
    expect(d).toMatchObject({
      event: 'test',
      status: 'delivered',
      attempts: 1,
      last_status_code: 204,
      alert_id: null,
    });
    const got = receiver.received.filter((r) => r.path === '/ok/test');
    expect(got).toHaveLength(1);
    expect(verify(cp.secret!, got[0]!)).toBe(true);
    expect(JSON.parse(got[0]!.body)).toMatchObject({ delivery_id: d.id, event: 'test' });

    const redirect = await contactPoint({ name: 'Moved', kind: 'webhook', url: receiver.url('/redirect') });
    const r = DeliverySchema.parse((await post(`/api/contact-points/${redirect.id}/test/`, {})).json());
    expect(r).toMatchObject({ status: 'failed', last_status_code: 302 });
    expect(receiver.received.filter((x) => x.path === '/').length).toBe(0);
    const list = await deliveries(`contact_point_id=${redirect.id}`);
    expect(list.map((x) => x.id)).toEqual([r.id]);
  });

  it('an alert goes to each contact point of a matching policy, signed; a failure is retried under the same id; clearing sends alert.cleared', async () => {
    await noPolicies();
    const hook = await contactPoint({ name: 'Hook', kind: 'webhook', url: receiver.url('/ok/raised') });
    const flaky = await contactPoint({
      name: 'Flaky',
      kind: 'webhook',
      url: receiver.url('/flaky/raised'),
      secret: 'a-secret-of-our-own-choosing',
    });
    const slack = await contactPoint({ name: 'Slack', kind: 'slack', url: receiver.url('/ok/slack') });
    const teams = await contactPoint({ name: 'Teams', kind: 'teams', url: receiver.url('/ok/teams') });
    const mail = await contactPoint({ name: 'Mail', kind: 'email', addresses: ['night-shift@example.com'] });
    const all = [hook.id, flaky.id, slack.id, teams.id, mail.id];
    await policy({ name: 'Everything here', contact_point_ids: all });
    // A policy that does not match: another event type only.
    await policy({ name: 'Other types', event_types: [3], contact_point_ids: [hook.id] });
    receiver.failNext(1);

    const alertId = await raise(12, 'Printer error: paper jam');
    const queued = await deliveries(`alert_id=${alertId}`);
    expect(queued.map((d) => d.contact_point_id).sort()).toEqual([...all].sort());
    expect(queued.every((d) => d.status === 'pending' && d.event === 'alert.raised')).toBe(true);

    const t0 = new Date();
    await t.app.deliveries.tick(t0);
    const sent = await deliveries(`alert_id=${alertId}`);
    const of = (id: number) => sent.find((d) => d.contact_point_id === id)!;
    expect(of(hook.id)).toMatchObject({ status: 'delivered', attempts: 1, last_status_code: 204 });
    expect(of(flaky.id)).toMatchObject({ status: 'retrying', attempts: 1, last_status_code: 500 });
    expect(of(flaky.id).last_error).not.toContain('internal detail');
    expect(of(mail.id).status).toBe('delivered');

    const body = receiver.received.find((r) => r.path === '/ok/raised')!;
    expect(verify(hook.secret!, body)).toBe(true);
    expect(body.headers['x-forecourt-event']).toBe('alert.raised');
    expect(body.headers['x-forecourt-delivery']).toBe(String(of(hook.id).id));
    expect(Math.abs(Number(body.headers['x-forecourt-timestamp']) - Date.now() / 1000)).toBeLessThan(60);
    const payload = JSON.parse(body.body);
    expect(payload).toMatchObject({
      delivery_id: of(hook.id).id,
      event: 'alert.raised',
      alert: { id: alertId, text: 'Printer error: paper jam', state: 'active' },
      site: { id: f.siteId },
      terminal: { id: f.plainTerminalId },
      link: `https://console.example/#/site/${f.siteId}/alert/log/`,
    });
    expect(Object.keys(payload).sort()).toEqual([
      'alert',
      'delivery_id',
      'event',
      'link',
      'site',
      'terminal',
    ]);
    const slackBody = JSON.parse(receiver.received.find((r) => r.path === '/ok/slack')!.body);
    expect(Object.keys(slackBody)).toEqual(['text']);
    expect(slackBody.text).toContain('Printer error: paper jam');
    expect(slackBody.text).toContain('https://console.example/#/site/');
    const teamsBody = JSON.parse(receiver.received.find((r) => r.path === '/ok/teams')!.body);
    expect(teamsBody).toMatchObject({ '@type': 'MessageCard', '@context': 'https://schema.org/extensions' });
    expect(teamsBody.text).toContain('Printer error: paper jam');
    expect(
      smtp.mails.some((m) => m.to.includes('night-shift@example.com') && m.text.includes('paper jam')),
    ).toBe(true);

    // Not due yet: nothing happens; after the retry delay the same delivery goes again and succeeds.
    await t.app.deliveries.tick(new Date(t0.getTime() + 1_000));
    expect(receiver.received.filter((r) => r.path === '/flaky/raised')).toHaveLength(1);
    await t.app.deliveries.tick(new Date(t0.getTime() + 6_000));
    const tries = receiver.received.filter((r) => r.path === '/flaky/raised');
    expect(tries).toHaveLength(2);
    expect(tries.map((r) => r.headers['x-forecourt-delivery'])).toEqual([
      String(of(flaky.id).id),
      String(of(flaky.id).id),
    ]);
    expect(JSON.parse(tries[0]!.body).delivery_id).toBe(JSON.parse(tries[1]!.body).delivery_id);
    expect(verify('a-secret-of-our-own-choosing', tries[1]!)).toBe(true);
    const retried = (await deliveries(`contact_point_id=${flaky.id}&status=delivered`))[0]!;
    expect(retried).toMatchObject({ id: of(flaky.id).id, attempts: 2, last_status_code: 200 });

    // Clearing: alert.cleared to each contact point that got alert.raised.
    expect((await deviceCall(t, device, 'POST', 'events', { event_type: 12, clear: true })).statusCode).toBe(
      202,
    );
    const cleared = (await deliveries(`alert_id=${alertId}`)).filter((d) => d.event === 'alert.cleared');
    expect(cleared.map((d) => d.contact_point_id).sort()).toEqual([...all].sort());
    await t.app.deliveries.tick(new Date(t0.getTime() + 7_000));
    const clearedBody = receiver.received.filter((r) => r.headers['x-forecourt-event'] === 'alert.cleared');
    expect(clearedBody.length).toBeGreaterThanOrEqual(2);
    expect(JSON.parse(clearedBody[0]!.body).alert.state).toBe('cleared');
  });

  it('a failure past the last retry is failed; the metric counts what is pending', async () => {
    await noPolicies();
    const down = await contactPoint({ name: 'Down', kind: 'webhook', url: receiver.url('/flaky/down') });
    await policy({ name: 'To the down hook', contact_point_ids: [down.id] });
    receiver.failNext(10);
    const alertId = await raise(13, 'Card reader error: no response');
    expect((await t.app.repos.metrics.backlog()).deliveriesPending).toBeGreaterThanOrEqual(1);
    const t0 = new Date();
    for (const s of [0, 6, 12]) await t.app.deliveries.tick(new Date(t0.getTime() + s * 1000));
    const [d] = await deliveries(`alert_id=${alertId}`);
    expect(d).toMatchObject({ status: 'failed', attempts: 3, last_status_code: 500 });
    expect((await t.app.repos.metrics.backlog()).deliveriesPending).toBe(0);
    receiver.failNext(0);
  });

  it('escalates an unacknowledged alert once, only to escalate_to_ids; acknowledging stops it', async () => {
    await noPolicies();
    const first = await contactPoint({ name: 'First line', kind: 'webhook', url: receiver.url('/ok/first') });
    const boss = await contactPoint({ name: 'Boss', kind: 'webhook', url: receiver.url('/ok/boss') });
    await policy({
      name: 'Escalating',
      contact_point_ids: [first.id],
      escalate_after_s: 60,
      escalate_to_ids: [boss.id],
    });
    const ignored = await raise(15, 'Tamper: cabinet opened');
    const acked = await raise(2, 'Battery fault: swollen cell');
    expect((await post(`/api/alerts/${acked}/ack/`, { note: 'on it' })).statusCode).toBe(200);

    expect(await t.app.deliveries.escalate(inS(30))).toBe(0);
    expect(await t.app.deliveries.escalate(inS(61))).toBe(1);
    expect(await t.app.deliveries.escalate(inS(120))).toBe(0);
    const esc = (await deliveries(`alert_id=${ignored}`)).filter((d) => d.event === 'alert.escalated');
    expect(esc.map((d) => d.contact_point_id)).toEqual([boss.id]);
    expect((await deliveries(`alert_id=${acked}`)).some((d) => d.event === 'alert.escalated')).toBe(false);
    await t.app.deliveries.tick(inS(61));
    const got = receiver.received.filter((r) => r.path === '/ok/boss');
    expect(got).toHaveLength(1);
    expect(JSON.parse(got[0]!.body)).toMatchObject({ event: 'alert.escalated', alert: { id: ignored } });
  });

  it('a silenced alert notifies nothing; still active when its window ends, it is notified then', async () => {
    await noPolicies();
    const cp = await contactPoint({ name: 'Quiet', kind: 'webhook', url: receiver.url('/ok/quiet') });
    await policy({
      name: 'Quiet hours',
      contact_point_ids: [cp.id],
      escalate_after_s: 0,
      escalate_to_ids: [cp.id],
    });
    const window = await post('/api/maintenance/', {
      target: terminalTarget,
      starts_at: new Date().toISOString(),
      ends_at: inS(3600).toISOString(),
    });
    expect(window.statusCode, window.body).toBe(201);
    const still = await raise(1, 'Flash drive failure: read errors');
    const gone = await raise(14, 'Power supply: mains lost');
    expect((await deviceCall(t, device, 'POST', 'events', { event_type: 14, clear: true })).statusCode).toBe(
      202,
    );
    expect(await deliveries(`alert_id=${still}`)).toEqual([]);
    expect(await t.app.deliveries.escalate(inS(10))).toBe(0);
    expect(await deliveries(`alert_id=${still}`)).toEqual([]);

    expect((await del(`/api/maintenance/${window.json().id}/`)).statusCode).toBe(200);
    const now = await deliveries(`alert_id=${still}`);
    expect(now.map((d) => d.event)).toEqual(['alert.raised']);
    expect(await deliveries(`alert_id=${gone}`)).toEqual([]);
  });
});
