import { ContactPointCreatedSchema } from '@forecourt/contract/notifications';
import { startSmtpServer } from '@forecourt/test-support/smtp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, postgresUnavailable, type TestApp } from './helper.ts';

const DAY = 86_400_000;

/** The outbox is pruned (docs/integrations.md#deliveries): the leader deletes finished deliveries past the retention. */
describe.skipIf(postgresUnavailable)('delivery pruning', () => {
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
  let t: TestApp;

  beforeAll(async () => {
    smtp = await startSmtpServer();
    t = await buildTestApp({ SMTP_URL: smtp.url, DELIVERY_RETENTION_DAYS: '10' });
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  it('deletes delivered and failed deliveries older than DELIVERY_RETENTION_DAYS, keeps the rest', async () => {
    const agent = await t.login('agent');
    const res = await t.as(agent, {
      method: 'POST',
      url: '/api/contact-points/',
      payload: { name: 'Prune me', kind: 'email', addresses: ['ops@example.test'] },
    });
    expect(res.statusCode, res.body).toBe(201);
    const cp = ContactPointCreatedSchema.parse(res.json());
    const ids: number[] = [];
    for (let i = 0; i < 5; i++) {
      const sent = await t.as(agent, { method: 'POST', url: `/api/contact-points/${cp.id}/test/` });
      expect(sent.statusCode, sent.body).toBe(200);
      ids.push(Number(sent.json().id));
    }
    const [oldDelivered, oldFailed, oldPending, oldRetrying, recent] = ids;
    const set = (id: number | undefined, status: string, ageDays: number) =>
      t.database.query(`update notification_deliveries set status = $2, created_at = $3 where id = $1`, [
        id,
        status,
        new Date(Date.now() - ageDays * DAY),
      ]);
    await set(oldDelivered, 'delivered', 11);
    await set(oldFailed, 'failed', 40);
    await set(oldPending, 'pending', 40);
    await set(oldRetrying, 'retrying', 12);
    await set(recent, 'delivered', 9);

    expect(await t.app.deliveries.prune()).toBe(2);
    const left = await t.database.query<{ id: number }>(
      'select id from notification_deliveries where id = any($1::bigint[]) order by id',
      [ids],
    );
    expect(left.map((r) => Number(r.id))).toEqual([oldPending, oldRetrying, recent]);
    expect(await t.app.deliveries.prune()).toBe(0);
    // Ten days on, the recent one goes too.
    expect(await t.app.deliveries.prune(new Date(Date.now() + 2 * DAY))).toBe(1);
  });
});
