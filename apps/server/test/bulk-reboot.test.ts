import { BulkRebootAcceptedSchema } from '@forecourt/contract/bulk-reboot';
import { ErrorBodySchema } from '@forecourt/contract/common';
import { CommandSchema } from '@forecourt/contract/terminals';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FleetSession, openFleetSession } from './fleet-fixture.ts';
import { postgresUnavailable } from './helper.ts';

/** `POST /api/terminals/reboot/ {target, reboot_type}`: one reboot per terminal of a target (docs/targets.md). */
describe.skipIf(postgresUnavailable)('bulk reboot of a target', () => {
  let { t, f, agent, company, site, companyId } = {} as FleetSession;
  let tagged: number[];

  const reboot = (token: string, payload: unknown) =>
    t.as(token, { method: 'POST', url: '/api/terminals/reboot/', payload: payload as object });
  const openReboots = async (ids: number[]) =>
    (
      await t.database.query<{ terminal_id: number }>(
        `select terminal_id from commands where kind = 'reboot' and state in ('queued', 'sent')
            and terminal_id = any($1::int[]) order by terminal_id`,
        [ids],
      )
    ).map((r) => Number(r.terminal_id));

  beforeAll(async () => {
    ({ t, f, agent, company, site, companyId } = await openFleetSession({}, { settleCommands: true }));
    const rows = await t.database.query<{ id: number }>(
      `select id from terminals where company_id = $1 and decommissioned_at is null order by id limit 4`,
      [companyId],
    );
    tagged = rows.map((r) => Number(r.id));
    await t.database.query(`update terminals set tags = '{bulk-test}' where id = any($1::int[])`, [tagged]);
    // No reboot of theirs is open at the start (the demo history may have left some).
    await t.database.query(
      `update commands set state = 'expired' where kind = 'reboot' and state in ('queued', 'sent')
          and terminal_id = any($1::int[])`,
      [tagged],
    );
  });
  afterAll(async () => t?.close());

  it('queues one reboot per terminal, skipping and counting one already pending, and audits it', async () => {
    const single = await t.as(agent, {
      method: 'POST',
      url: `/api/terminal/${tagged[0]}/reboot/`,
      payload: { reboot_type: 'software' },
    });
    expect(single.statusCode).toBe(202);
    const target = { scope: { kind: 'company', id: companyId }, tags: ['bulk-test'] };
    const res = await reboot(company, { target, reboot_type: 'full' });
    expect(res.statusCode).toBe(202);
    const body = BulkRebootAcceptedSchema.parse(res.json());
    expect(body.count).toBe(tagged.length - 1);
    expect(body.skipped).toBe(1);
    expect(body.command_ids).toHaveLength(tagged.length - 1);
    for (const id of body.command_ids) {
      const c = CommandSchema.parse(
        (await t.as(company, { method: 'GET', url: `/api/command/${id}/` })).json(),
      );
      expect(c.kind).toBe('reboot');
      expect(c.reboot_type).toBe('full');
      expect(c.state).toBe('queued');
      expect(tagged.slice(1)).toContain(c.terminal_id);
      expect(c.requested_by).toBe('Casey Company');
    }
    expect(await openReboots(tagged)).toEqual(tagged);

    // Again: every terminal has one pending now; nothing is queued (the single reboot's 409 rule).
    const again = BulkRebootAcceptedSchema.parse(
      (await reboot(company, { target, reboot_type: 'full' })).json(),
    );
    expect(again).toEqual({ count: 0, skipped: tagged.length, command_ids: [] });

    const audit = await t.database.query<{
      username: string;
      action: string;
      agent_id: number;
      after: unknown;
    }>(`select username, action, agent_id, after from audit_log where action = 'reboot' order by id`);
    expect(audit).toHaveLength(2);
    expect(audit[0].username).toBe('company');
    const after = (
      typeof audit[0].after === 'string' ? JSON.parse(audit[0].after) : audit[0].after
    ) as Record<string, unknown>;
    expect(after).toMatchObject({ target, reboot_type: 'full', count: tagged.length - 1, skipped: 1 });
    expect(after.command_ids).toEqual(body.command_ids);
    expect(Number(audit[0].agent_id)).toBeGreaterThan(0);
  });

  it('answers 403 to site users and outside the scope, 400 naming bad fields, 401 without a token', async () => {
    const mine = { scope: { kind: 'site', id: f.siteId }, tags: [] };
    const bySite = await reboot(site, { target: mine, reboot_type: 'software' });
    expect(bySite.statusCode).toBe(403);
    const outside = await reboot(company, {
      target: { scope: { kind: 'site', id: f.otherCompanySite.siteId }, tags: [] },
      reboot_type: 'software',
    });
    expect(outside.statusCode).toBe(403);
    const outsider = await reboot(agent, {
      target: { scope: { kind: 'terminal', id: f.outsider.terminalId } },
      reboot_type: 'software',
    });
    expect(outsider.statusCode).toBe(403);
    expect(await openReboots([f.outsider.terminalId, f.otherCompanySite.terminalId])).toEqual([]);

    const bad: [unknown, string][] = [
      [{ target: mine, reboot_type: 'hard' }, "reboot_type must be 'software' or 'full'"],
      [{ target: mine }, 'reboot_type'],
      [{ reboot_type: 'full' }, 'target must be an object'],
      [
        { target: { scope: { kind: 'site', id: f.siteId }, tags: ['Not OK'] }, reboot_type: 'full' },
        'target.tags',
      ],
    ];
    for (const [payload, message] of bad) {
      const res = await reboot(agent, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(ErrorBodySchema.parse(res.json()).data.errors.join(' | ')).toContain(message);
    }
    const anonymous = await t.app.inject({
      method: 'POST',
      url: '/api/terminals/reboot/',
      payload: { target: mine, reboot_type: 'full' },
    });
    expect(anonymous.statusCode).toBe(401);
  });

  it('an empty target queues nothing', async () => {
    const res = await reboot(agent, {
      target: { scope: { kind: 'site', id: f.siteId }, tags: ['no-terminal-has-this'] },
      reboot_type: 'software',
    });
    expect(res.statusCode).toBe(202);
    expect(BulkRebootAcceptedSchema.parse(res.json())).toEqual({ count: 0, skipped: 0, command_ids: [] });
  });
});
