import { MapSiteSchema } from '@forecourt/contract/fleet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { buildTestApp, postgresUnavailable, type TestApp } from './helper.ts';
import { type OrgFixture, orgFixture } from './org-fixtures.ts';

/** The agent and company maps are built as JSON text by the database; they must equal the row-by-row answer. */
describe.skipIf(postgresUnavailable)('map terminals built as JSON by the database', () => {
  let t: TestApp;
  let f: OrgFixture;
  beforeAll(async () => {
    t = await buildTestApp();
    f = await orgFixture(t.database);
    // Edge cases: a terminal without its own coordinates (takes its site's), one whose site has none either
    // (left out), and every connectivity value.
    const terminals = await t.database.query<{ id: number; site_id: number }>(
      'select id, site_id from terminals where company_id = $1 order by id limit 4',
      [f.companyId],
    );
    await t.database.query('update terminals set lat = null, lng = null where id = $1', [terminals[0].id]);
    await t.database.query(
      `insert into sites (company_id, agent_id, title, number) values ($1, $2, $3, $4)`,
      [f.companyId, f.agentId, 'No "Place" \\ Forecourt\tü💥</script>', '7777\n7'],
    );
    await t.database.query(`update terminals set connectivity = 'off' where id = $1`, [terminals[1].id]);
    await t.database.query(`update terminals set connectivity = 'unknown' where id = $1`, [terminals[2].id]);
  });
  afterAll(async () => t?.close());

  for (const kind of ['agent', 'company'] as const) {
    it(`${kind}: same sites, terminals, coordinates and colours as the row-by-row answer`, async () => {
      const scope = { kind, id: kind === 'agent' ? f.agentId : f.companyId };
      const text = await t.app.repos.fleetReads.mapSitesJson(scope);
      const parsed = z.array(MapSiteSchema).parse(JSON.parse(text));
      expect(parsed).toEqual(await t.app.repos.fleetReads.mapSites(scope));
      expect(parsed.length).toBeGreaterThan(1);
      expect(parsed.some((s) => s.terminals.length === 0)).toBe(true);
      expect(parsed.map((s) => s.site_title)).toContain('No "Place" \\ Forecourt\tü💥</script>');
      const colours = new Set(parsed.flatMap((s) => s.terminals.map((x) => x.marker_color)));
      expect([...colours].sort()).toEqual(['green', 'red', 'yellow']);
    });
  }

  it('answers an empty list for a scope without sites, and the route serves the same text', async () => {
    expect(await t.app.repos.fleetReads.mapSitesJson({ kind: 'agent', id: 2_000_000_000 })).toBe('[]');
    const res = await t.as(await t.login('agent'), {
      method: 'GET',
      url: `/api/agent/${f.agentId}/map/terminals/`,
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('application/json');
    expect(z.array(MapSiteSchema).parse(res.json())).toEqual(
      await t.app.repos.fleetReads.mapSites({ kind: 'agent', id: f.agentId }),
    );
  });
});
