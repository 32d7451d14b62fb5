import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, postgresUnavailable, type TestApp } from './helper.ts';
import { type OrgFixture, orgFixture } from './org-fixtures.ts';
import { fill, type Kind, READ_ROUTES, type ReadRoute } from './read-routes-table.ts';

type Role = 'agent' | 'company' | 'site';

/** Which kinds each demo role reaches with its own ids. */
const REACHES: Record<Role, Kind[]> = {
  agent: ['agent', 'company', 'site'],
  company: ['company', 'site'],
  site: ['site'],
};

function insideUrl(route: ReadRoute, f: OrgFixture): string {
  if (route.nestedSite) return fill(route.path, f.companyId, f.siteId);
  const id = route.kind === 'agent' ? f.agentId : route.kind === 'company' ? f.companyId : f.siteId;
  return fill(route.path, id);
}

/** An id of the route's kind that the role does not reach (another agent, company or site). */
function outsideUrl(route: ReadRoute, role: Role, f: OrgFixture): string {
  if (route.nestedSite) {
    return role === 'agent'
      ? fill(route.path, f.outsider.companyId, f.outsider.siteId)
      : fill(route.path, f.otherCompanyId, f.otherCompanySiteId);
  }
  if (route.kind === 'agent') return fill(route.path, f.outsider.agentId);
  if (route.kind === 'company')
    return fill(route.path, role === 'agent' ? f.outsider.companyId : f.otherCompanyId);
  const site =
    role === 'agent' ? f.outsider.siteId : role === 'company' ? f.otherCompanySiteId : f.companySiteId;
  return fill(route.path, site);
}

describe.skipIf(postgresUnavailable)('scope matrix of every read and log route', () => {
  let t: TestApp;
  let f: OrgFixture;
  const tokens = {} as Record<Role, string>;

  beforeAll(async () => {
    t = await buildTestApp();
    f = await orgFixture(t.database);
    for (const role of ['agent', 'company', 'site'] as const) tokens[role] = await t.login(role);
  });
  afterAll(async () => t?.close());

  it.each(READ_ROUTES.map((r) => [r.path, r] as const))('%s', async (_path, route) => {
    for (const role of ['agent', 'company', 'site'] as const) {
      const inside = await t.as(tokens[role], { method: 'GET', url: insideUrl(route, f) });
      const expected = REACHES[role].includes(route.kind) ? 200 : 403;
      expect(inside.statusCode, `${role} ${insideUrl(route, f)}: ${inside.body.slice(0, 200)}`).toBe(
        expected,
      );
      const outside = await t.as(tokens[role], { method: 'GET', url: outsideUrl(route, role, f) });
      expect(outside.statusCode, `${role} ${outsideUrl(route, role, f)}`).toBe(403);
      expect(outside.json().data.errors.length).toBeGreaterThan(0);
      // A 403 is answered whatever the query: scope comes before validation.
      const bad = await t.as(tokens[role], {
        method: 'GET',
        url: `${outsideUrl(route, role, f)}?limit_to=abc`,
      });
      expect(bad.statusCode, `${role} bad query outside`).toBe(403);
    }
  });
});
