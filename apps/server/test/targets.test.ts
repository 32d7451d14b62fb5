import { ErrorBodySchema } from '@forecourt/contract/common';
import { type Target, TargetPreviewSchema } from '@forecourt/contract/targets';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Params } from '../src/repositories/read-scope.ts';
import { targetReachesSql } from '../src/repositories/rule-sql.ts';
import { storedTargetMatchSql, targetTerminalIdsSql } from '../src/repositories/target-sql.ts';
import { type FleetSession, openFleetSession } from './fleet-fixture.ts';
import { postgresUnavailable } from './helper.ts';

interface Row {
  id: number;
  agent_id: number;
  company_id: number;
  site_id: number;
  tags: string[];
  live: boolean;
}

/** Targets: the service's rules through `POST /api/targets/preview/`, and the SQL fragments other features embed. */
describe.skipIf(postgresUnavailable)('targets', () => {
  let { t, f, agent, company, site, agentId, companyId } = {} as FleetSession;

  const preview = (token: string, payload: unknown) =>
    t.as(token, { method: 'POST', url: '/api/targets/preview/', payload: payload as object });

  /** What a target should reach, computed here from every terminal row (not by the code under test). */
  async function expected(target: Target): Promise<number[]> {
    const rows = await t.database.query<Row>(
      `select id, agent_id, company_id, site_id, tags, decommissioned_at is null as live from terminals`,
    );
    const col = { agent: 'agent_id', company: 'company_id', site: 'site_id', terminal: 'id' } as const;
    return rows
      .filter((r) => r.live && Number(r[col[target.scope.kind]]) === target.scope.id)
      .filter((r) => target.tags.every((tag) => r.tags.includes(tag)))
      .map((r) => Number(r.id))
      .sort((a, b) => a - b);
  }

  async function tag(ids: number[], tags: string[]) {
    await t.database.query('update terminals set tags = $2::text[] where id = any($1::int[])', [ids, tags]);
  }

  beforeAll(async () => {
    ({ t, f, agent, company, site, agentId, companyId } = await openFleetSession());
    // Every terminal of the company's sites gets `zone-a`; every other one of them also `canary`.
    const ofCompany = await t.database.query<{ id: number }>(
      'select id from terminals where company_id = $1 and decommissioned_at is null order by id',
      [companyId],
    );
    const ids = ofCompany.map((r) => Number(r.id));
    await tag(
      ids.filter((_, i) => i % 2 === 0),
      ['zone-a', 'canary'],
    );
    await tag(
      ids.filter((_, i) => i % 2 === 1),
      ['zone-a'],
    );
    // One terminal of another company is a canary too: a company target must not reach it.
    await tag([f.otherCompanySite.terminalId], ['canary']);
  });
  afterAll(async () => t?.close());

  it('reaches the live terminals inside the scope carrying every tag, counted and listed', async () => {
    const targets: Target[] = [
      { scope: { kind: 'agent', id: agentId }, tags: [] },
      { scope: { kind: 'agent', id: agentId }, tags: ['canary'] },
      { scope: { kind: 'company', id: companyId }, tags: ['canary'] },
      { scope: { kind: 'company', id: companyId }, tags: ['zone-a', 'canary'] },
      { scope: { kind: 'company', id: companyId }, tags: ['zone-a', 'nobody-has-this'] },
      { scope: { kind: 'site', id: f.companySite.siteId }, tags: ['zone-a'] },
      { scope: { kind: 'terminal', id: f.companySite.terminalId }, tags: [] },
    ];
    for (const target of targets) {
      const want = await expected(target);
      const res = await preview(agent, { target, limit_to: 1000 });
      expect(res.statusCode, JSON.stringify(target)).toBe(200);
      const body = TargetPreviewSchema.parse(res.json());
      expect(body.count, JSON.stringify(target)).toBe(want.length);
      expect(body.terminals.map((x) => x.id).sort((a, b) => a - b)).toEqual(want);
      for (const x of body.terminals) expect(x.tags).toEqual(expect.arrayContaining(target.tags));
    }
    // The agent's canaries include the other company's one; the company's do not.
    const agentCanaries = await expected({ scope: { kind: 'agent', id: agentId }, tags: ['canary'] });
    const companyCanaries = await expected({ scope: { kind: 'company', id: companyId }, tags: ['canary'] });
    expect(agentCanaries).toContain(f.otherCompanySite.terminalId);
    expect(companyCanaries).not.toContain(f.otherCompanySite.terminalId);
    expect(companyCanaries.length).toBeGreaterThan(0);
  });

  it('lists the first limit_to terminals by number and counts them all; tags are matched lowercased', async () => {
    const target = { scope: { kind: 'company', id: companyId }, tags: ['ZONE-A'] };
    const all = await expected({ scope: { kind: 'company', id: companyId }, tags: ['zone-a'] });
    const res = await preview(agent, { target, limit_to: 2 });
    expect(res.statusCode).toBe(200);
    const body = TargetPreviewSchema.parse(res.json());
    expect(body.count).toBe(all.length);
    expect(body.terminals).toHaveLength(2);
    const numbers = body.terminals.map((x) => x.terminal_id);
    expect([...numbers].sort()).toEqual(numbers);
    const onlyCount = TargetPreviewSchema.parse((await preview(agent, { target, limit_to: 0 })).json());
    expect(onlyCount).toEqual({ count: all.length, terminals: [] });
  });

  it('is evaluated when used: a terminal tagged or decommissioned later is in or out at once', async () => {
    const target: Target = { scope: { kind: 'agent', id: agentId }, tags: ['late-tag'] };
    const count = async () => TargetPreviewSchema.parse((await preview(agent, { target })).json()).count;
    expect(await count()).toBe(0);
    await tag([f.companySite.terminalId, f.otherCompanySite.terminalId], ['late-tag']);
    expect(await count()).toBe(2);
    await t.database.query('update terminals set decommissioned_at = now() where id = $1', [
      f.otherCompanySite.terminalId,
    ]);
    expect(await count()).toBe(1);
    await t.database.query('update terminals set decommissioned_at = null, tags = $2 where id = $1', [
      f.otherCompanySite.terminalId,
      ['canary'],
    ]);
    await tag([f.companySite.terminalId], ['zone-a', 'canary']);
  });

  it('answers 400 naming target and its bad part, and writes nothing', async () => {
    const cases: [unknown, string][] = [
      [{}, 'target must be an object {scope: {kind, id}, tags}'],
      [{ target: 'everything' }, 'target must be an object'],
      [{ target: { tags: [] } }, 'target.scope must be an object {kind, id}'],
      [
        { target: { scope: { kind: 'region', id: 1 } } },
        "target.scope.kind must be 'agent', 'company', 'site' or 'terminal'",
      ],
      [{ target: { scope: { kind: 'site', id: '1' } } }, 'target.scope.id must be a numeric id'],
      [{ target: { scope: { kind: 'site', id: -3 } } }, 'target.scope.id must be a numeric id'],
      [{ target: { scope: { kind: 'site', id: 1.5 } } }, 'target.scope.id must be a numeric id'],
      [{ target: { scope: { kind: 'site', id: 1 }, tags: 'canary' } }, 'target.tags must be a list of tags'],
      [
        { target: { scope: { kind: 'site', id: 1 }, tags: ['has space'] } },
        'target.tags: "has space" is not a tag',
      ],
      [
        { target: { scope: { kind: 'site', id: 1 }, tags: ['x'.repeat(33)] } },
        'is not a tag (1–32 characters',
      ],
      [{ target: { scope: { kind: 'site', id: 1 }, tags: [''] } }, 'target.tags: "" is not a tag'],
      [{ target: { scope: { kind: 'site', id: 1 }, tags: [7] } }, 'target.tags: "7" is not a tag'],
      [
        { target: { scope: { kind: 'site', id: 1 }, tags: Array.from({ length: 21 }, (_, i) => `t${i}`) } },
        'target.tags may hold at most 20 tags',
      ],
      [{ target: { scope: { kind: 'site', id: 1 }, colour: 'red' } }, 'target: unknown field colour'],
      [{ target: { scope: { kind: 'site', id: 1, name: 'x' } } }, 'target.scope: unknown field name'],
      [{ target: { scope: { kind: 'site', id: 1 } }, limit_to: 5000 }, 'limit_to must be a whole number'],
      [{ target: { scope: { kind: 'company', id: 999_999 } } }, 'target.scope.id: no company with id 999999'],
      [
        { target: { scope: { kind: 'terminal', id: 999_999 } } },
        'target.scope.id: no terminal with id 999999',
      ],
    ];
    for (const [payload, message] of cases) {
      const res = await preview(agent, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      const errors = ErrorBodySchema.parse(res.json()).data.errors;
      expect(errors.join(' | '), JSON.stringify(payload)).toContain(message);
    }
    // A tag list of 21 with duplicates that fold to 20 is fine (lowercased, each once).
    const folded = [...Array.from({ length: 20 }, (_, i) => `t${i}`), 'T0'];
    const ok = await preview(agent, { target: { scope: { kind: 'agent', id: agentId }, tags: folded } });
    expect(ok.statusCode).toBe(200);
  });

  it('answers 403 for a target outside the caller’s scope, 401 without a token', async () => {
    const forbidden: [string, Target][] = [
      [company, { scope: { kind: 'agent', id: agentId }, tags: [] }],
      [company, { scope: { kind: 'site', id: f.otherCompanySite.siteId }, tags: [] }],
      [company, { scope: { kind: 'terminal', id: f.otherCompanySite.terminalId }, tags: [] }],
      [site, { scope: { kind: 'company', id: companyId }, tags: [] }],
      [site, { scope: { kind: 'site', id: f.companySite.siteId }, tags: [] }],
      [agent, { scope: { kind: 'site', id: f.outsider.siteId }, tags: [] }],
      [agent, { scope: { kind: 'terminal', id: f.outsider.terminalId }, tags: [] }],
    ];
    for (const [token, target] of forbidden) {
      const res = await preview(token, { target });
      expect(res.statusCode, JSON.stringify(target)).toBe(403);
      ErrorBodySchema.parse(res.json());
    }
    const allowed: [string, Target][] = [
      [company, { scope: { kind: 'company', id: companyId }, tags: ['canary'] }],
      [company, { scope: { kind: 'site', id: f.companySite.siteId }, tags: [] }],
      [site, { scope: { kind: 'site', id: f.siteId }, tags: [] }],
      [site, { scope: { kind: 'terminal', id: f.plainTerminalId }, tags: [] }],
    ];
    for (const [token, target] of allowed) {
      const res = await preview(token, { target });
      expect(res.statusCode, JSON.stringify(target)).toBe(200);
      expect(TargetPreviewSchema.parse(res.json()).count).toBe((await expected(target)).length);
    }
    const anonymous = await t.app.inject({
      method: 'POST',
      url: '/api/targets/preview/',
      payload: { target: { scope: { kind: 'site', id: f.siteId } } },
    });
    expect(anonymous.statusCode).toBe(401);
  });

  it('parses, authorises and resolves through the service other features call', async () => {
    const principal = await t.app.repos.principals.load(
      Number(
        (await t.database.query<{ id: number }>(`select id from users where username = 'company'`))[0].id,
      ),
    );
    const target = await t.app.targets.accept(principal!, {
      scope: { kind: 'company', id: companyId },
      tags: ['Canary'],
    });
    expect(target.tags).toEqual(['canary']);
    expect(await t.app.targets.terminalIds(target)).toEqual(await expected(target));
    const inside = (await expected(target))[0];
    expect(await t.app.targets.reaches(target, inside)).toBe(true);
    expect(await t.app.targets.reaches(target, f.otherCompanySite.terminalId)).toBe(false);
    await expect(
      t.app.targets.accept(principal!, { scope: { kind: 'agent', id: agentId }, tags: [] }),
    ).rejects.toMatchObject({ statusCode: 403 });
    await expect(
      t.app.targets.accept(principal!, { scope: { kind: 'planet', id: 1 } }),
    ).rejects.toMatchObject({ statusCode: 400, errors: [expect.stringContaining('target.scope.kind')] });
  });

  it('the SQL fragments agree with each other: a stored jsonb target matches what the parameterised one reaches', async () => {
    const targets: Target[] = [
      { scope: { kind: 'agent', id: agentId }, tags: [] },
      { scope: { kind: 'agent', id: agentId }, tags: ['canary'] },
      { scope: { kind: 'company', id: companyId }, tags: ['zone-a', 'canary'] },
      { scope: { kind: 'site', id: f.companySite.siteId }, tags: [] },
      { scope: { kind: 'terminal', id: f.companySite.terminalId }, tags: ['zone-a'] },
      { scope: { kind: 'terminal', id: f.companySite.terminalId }, tags: ['nope'] },
    ];
    for (const target of targets) {
      const p = new Params();
      const sub = await t.database.query<{ id: number }>(
        `select t.id from terminals t where t.id in (${targetTerminalIdsSql(target, p)}) order by t.id`,
        p.values,
      );
      const stored = await t.database.query<{ id: number }>(
        `select t.id from terminals t where ${storedTargetMatchSql('$1::jsonb')} order by t.id`,
        [JSON.stringify(target)],
      );
      // A target stored in columns, as a rule or a maintenance window stores it.
      const columns = await t.database.query<{ id: number }>(
        `select t.id from terminals t,
                (select $1::text as scope_kind, $2::int as scope_id, $3::text[] as tags) x
          where ${targetReachesSql('x', 't')} order by t.id`,
        [target.scope.kind, target.scope.id, target.tags],
      );
      const want = await expected(target);
      expect(
        sub.map((r) => Number(r.id)),
        JSON.stringify(target),
      ).toEqual(want);
      expect(
        stored.map((r) => Number(r.id)),
        JSON.stringify(target),
      ).toEqual(want);
      expect(
        columns.map((r) => Number(r.id)),
        JSON.stringify(target),
      ).toEqual(want);
    }
    // A stored target without `tags` means every terminal of the scope.
    const bare = await t.database.query<{ id: number }>(
      `select t.id from terminals t where ${storedTargetMatchSql('$1::jsonb')} order by t.id`,
      [JSON.stringify({ scope: { kind: 'site', id: f.companySite.siteId } })],
    );
    expect(bare.map((r) => Number(r.id))).toEqual(
      await expected({ scope: { kind: 'site', id: f.companySite.siteId }, tags: [] }),
    );
  });
});
