import { ErrorBodySchema } from '@forecourt/contract/common';
import { CompanyDetailSchema, SiteDetailSchema } from '@forecourt/contract/fleet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, postgresUnavailable, type TestApp } from './helper.ts';
import { type OrgFixture, orgFixture } from './org-fixtures.ts';

type Who = 'agent' | 'company' | 'site';

describe.skipIf(postgresUnavailable)('scope: company and site detail', () => {
  let t: TestApp;
  let org: OrgFixture;
  const tokens = {} as Record<Who, string>;

  beforeAll(async () => {
    t = await buildTestApp();
    org = await orgFixture(t.database);
    for (const who of ['agent', 'company', 'site'] as const) tokens[who] = await t.login(who);
  });
  afterAll(async () => t?.close());

  const get = (who: Who, url: string) => t.as(tokens[who], { method: 'GET', url });

  describe('GET /api/company/detail/{id}/', () => {
    it('answers the company with its fields', async () => {
      const res = await get('agent', `/api/company/detail/${org.companyId}/`);
      expect(res.statusCode).toBe(200);
      const company = CompanyDetailSchema.parse(res.json());
      const row = (
        await t.database.query<{ name: string; n: string | number }>(
          'select name, (select count(*) from sites where company_id = $1) as n from companies where id = $1',
          [org.companyId],
        )
      )[0];
      expect(company).toMatchObject({
        id: org.companyId,
        name: row.name,
        agent_id: org.agentId,
        sites_count: Number(row.n),
      });
    });

    it.each([
      ['agent', 'companyId', 200],
      ['agent', 'otherCompanyId', 200],
      ['agent', 'outsider', 403],
      ['company', 'companyId', 200],
      ['company', 'otherCompanyId', 403],
      ['company', 'outsider', 403],
      ['site', 'companyId', 403],
      ['site', 'otherCompanyId', 403],
      ['site', 'outsider', 403],
    ] as const)('%s → %s: %i', async (who, which, status) => {
      const id = which === 'outsider' ? org.outsider.companyId : org[which];
      const res = await get(who, `/api/company/detail/${id}/`);
      expect(res.statusCode).toBe(status);
      if (status === 200) expect(CompanyDetailSchema.parse(res.json()).id).toBe(id);
      else expect(ErrorBodySchema.parse(res.json()).data.errors).toHaveLength(1);
    });
  });

  describe('GET /api/site/detail/{id}/', () => {
    it('answers the site with its fields', async () => {
      const res = await get('site', `/api/site/detail/${org.siteId}/`);
      expect(res.statusCode).toBe(200);
      const site = SiteDetailSchema.parse(res.json());
      const row = (
        await t.database.query<{ title: string; number: string; company_id: number; timezone: string }>(
          'select title, number, company_id, timezone from sites where id = $1',
          [org.siteId],
        )
      )[0];
      expect(site).toMatchObject({ id: org.siteId, ...row });
      expect(typeof site.company_name).toBe('string');
    });

    it.each([
      ['agent', 'siteId', 200],
      ['agent', 'companySiteId', 200],
      ['agent', 'otherCompanySiteId', 200],
      ['agent', 'outsider', 403],
      ['company', 'siteId', 200],
      ['company', 'companySiteId', 200],
      ['company', 'otherCompanySiteId', 403],
      ['company', 'outsider', 403],
      ['site', 'siteId', 200],
      ['site', 'companySiteId', 403],
      ['site', 'otherCompanySiteId', 403],
      ['site', 'outsider', 403],
    ] as const)('%s → %s: %i', async (who, which, status) => {
      const id = which === 'outsider' ? org.outsider.siteId : org[which];
      const res = await get(who, `/api/site/detail/${id}/`);
      expect(res.statusCode).toBe(status);
      if (status === 200) expect(SiteDetailSchema.parse(res.json()).id).toBe(id);
      else expect(ErrorBodySchema.parse(res.json()).data.errors).toHaveLength(1);
    });
  });

  describe('unknown, non-numeric and unauthenticated', () => {
    it.each(['company', 'site'])(
      '%s: unknown id → 404, non-numeric id → 404, no token → 401',
      async (kind) => {
        for (const id of ['999999', '0', 'abc', '1.5', '-1', '99999999999']) {
          const res = await get('agent', `/api/${kind}/detail/${id}/`);
          expect(res.statusCode, id).toBe(404);
          expect(ErrorBodySchema.parse(res.json()).data.errors).toHaveLength(1);
        }
        const anonymous = await t.app.inject({ method: 'GET', url: `/api/${kind}/detail/1/` });
        expect(anonymous.statusCode).toBe(401);
      },
    );

    it('works without the trailing slash too', async () => {
      const res = await get('company', `/api/company/detail/${org.companyId}`);
      expect(res.statusCode).toBe(200);
    });
  });
});
