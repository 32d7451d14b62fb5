import { ADMIN_ENTITY_NAMES } from '@forecourt/contract/admin-entities';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Env } from '../src/config/env.ts';
import type { Database } from '../src/db/client.ts';
import {
  adminEntityRepositories,
  createAdminEntityRepository,
} from '../src/repositories/admin-entity-repository.ts';
import { createCompanyRepository } from '../src/repositories/company-repository.ts';
import { createRepositories } from '../src/repositories/index.ts';
import { createPumpRepository, toAdminPump } from '../src/repositories/pump-repository.ts';
import { createSiteRepository, toAdminSite } from '../src/repositories/site-repository.ts';
import { unitOfWork } from '../src/repositories/unit-of-work.ts';
import { openDemoDatabase, postgresUnavailable } from './helper.ts';
import { type OrgFixture, orgFixture } from './org-fixtures.ts';

/**
 * The generic repository of an administered entity (admin-entity-repository.ts), pointed at tables that have a
 * repository written by hand, answers what that one answers: the same lists, scope, filters and paging, the same
 * row by id, and writes the hand-written one reads back.
 */
describe.skipIf(postgresUnavailable)('the generic admin entity repository', () => {
  let database: Database;
  let org: OrgFixture;
  let hand: {
    pumps: ReturnType<typeof createPumpRepository>;
    companies: ReturnType<typeof createCompanyRepository>;
    sites: ReturnType<typeof createSiteRepository>;
  };
  let generic: {
    pumps: ReturnType<typeof createAdminEntityRepository<'pumps'>>;
    companies: ReturnType<typeof createAdminEntityRepository<'companies'>>;
    sites: ReturnType<typeof createAdminEntityRepository<'sites'>>;
  };
  const all = { limit: 10_000 };

  beforeAll(async () => {
    database = await openDemoDatabase();
    org = await orgFixture(database);
    hand = {
      pumps: createPumpRepository(database),
      companies: createCompanyRepository(database),
      sites: createSiteRepository(database),
    };
    generic = {
      pumps: createAdminEntityRepository(database, 'pumps'),
      companies: createAdminEntityRepository(database, 'companies'),
      sites: createAdminEntityRepository(database, 'sites'),
    };
  });
  afterAll(() => database?.close());

  const pumpSites = async () =>
    (
      await database.query<{ site_id: number }>(
        'select site_id from pumps where decommissioned_at is null group by site_id order by site_id',
      )
    ).map((r) => Number(r.site_id));

  it("lists an agent's live rows through the parent chain (pump → site → agent), newest first", async () => {
    const mine = await generic.pumps.list(org.agentId, all);
    expect(mine.length).toBeGreaterThan(10);
    expect(mine).toEqual(await hand.pumps.list(org.agentId, all));
    expect(mine.map((p) => p.id)).toEqual([...mine.map((p) => p.id)].sort((a, b) => b - a));
    // Another agent reaches none of them, and its own company only.
    expect(await generic.pumps.list(org.outsider.agentId, all)).toEqual([]);
    expect((await generic.companies.list(org.outsider.agentId, all)).map((c) => c.id)).toEqual([
      org.outsider.companyId,
    ]);
    expect(await generic.companies.list(org.agentId, all)).toEqual(
      await hand.companies.list(org.agentId, all),
    );
  });

  it('filters by parent (`site_id` as `siteId`) and pages with limit and before like the hand-written lists', async () => {
    const [first, second] = await pumpSites();
    for (const siteId of [first!, second!]) {
      const of = await generic.pumps.list(org.agentId, { ...all, siteId });
      expect(of.length).toBeGreaterThan(0);
      expect(of.every((p) => p.site_id === siteId)).toBe(true);
      expect(of).toEqual(await hand.pumps.list(org.agentId, { ...all, siteId }));
    }
    const page1 = await generic.pumps.list(org.agentId, { limit: 3 });
    expect(page1).toEqual(await hand.pumps.list(org.agentId, { limit: 3 }));
    const before = String(page1.at(-1)!.id);
    expect(await generic.pumps.list(org.agentId, { limit: 3, before })).toEqual(
      await hand.pumps.list(org.agentId, { limit: 3, before }),
    );
    // A filter the list query does not have never reaches the SQL.
    const stray = { ...all, 'x = 1; drop table pumps; --Id': 1 } as typeof all;
    expect(await generic.pumps.list(org.agentId, stray)).toEqual(await generic.pumps.list(org.agentId, all));
  });

  it("`q` searches the row's own text and number fields, as a parameter", async () => {
    for (const q of ['demo', 'FUELS', 'zz-none']) {
      expect(await generic.companies.list(org.agentId, { ...all, q })).toEqual(
        await hand.companies.list(org.agentId, { ...all, q }),
      );
    }
    const every = await hand.pumps.list(org.agentId, all);
    expect(await generic.pumps.list(org.agentId, { ...all, q: '2' })).toEqual(
      every.filter((p) => String(p.pump_no).includes('2')),
    );
    expect(await generic.pumps.list(org.agentId, { ...all, q: "'; drop table pumps; -- %_" })).toEqual([]);
    expect((await database.query('select count(*) as n from pumps'))[0]).toBeTruthy();
  });

  it('reads one row by id with its agent, its state and the places above it', async () => {
    const [pump] = await hand.pumps.list(org.agentId, { limit: 1 });
    const row = await generic.pumps.byId(pump!.id);
    const theirs = (await hand.pumps.byId(pump!.id))!;
    expect(row).toEqual({
      row: toAdminPump(theirs),
      agent_id: Number(theirs.agent_id),
      decommissioned_at: null,
      place: { site_id: Number(theirs.site_id), company_id: Number(theirs.company_id) },
    });
    expect(await generic.pumps.byId(99_999_999)).toBeNull();
    const outsider = await generic.companies.byId(org.outsider.companyId);
    expect(outsider).toMatchObject({ agent_id: org.outsider.agentId, place: {} });
  });

  it('inserts, updates given fields and decommissions in a unit of work; the hand-written repository reads it', async () => {
    const company = await unitOfWork(database, (tx) =>
      generic.companies.insert(tx, { name: 'Generic Fuels', agent_id: org.agentId }),
    );
    expect(company).toEqual({ id: expect.any(Number), name: 'Generic Fuels' });
    expect(await hand.companies.byId(company.id)).toMatchObject({
      agent_id: org.agentId,
      name: 'Generic Fuels',
    });

    const fields = {
      company_id: company.id,
      title: 'Generic Forecourt',
      number: 'G-1',
      lat: 51.5,
      lng: -0.12,
      timezone: 'Europe/London',
      address: null,
    };
    const site = await unitOfWork(database, (tx) =>
      generic.sites.insert(tx, { ...fields, agent_id: org.agentId }),
    );
    expect(site).toEqual({ id: expect.any(Number), ...fields });
    expect(toAdminSite((await hand.sites.byId(site.id))!)).toEqual(site);
    expect(await generic.sites.list(org.agentId, { ...all, companyId: company.id })).toEqual([site]);

    const moved = await unitOfWork(database, (tx) =>
      generic.sites.update(tx, site.id, { title: 'Renamed', address: undefined }),
    );
    expect(moved).toEqual({ ...site, title: 'Renamed' });
    expect((await hand.sites.byId(site.id))!.title).toBe('Renamed');
    expect(
      await unitOfWork(database, (tx) => generic.sites.update(tx, 99_999_999, { title: 'x' })),
    ).toBeNull();
    await expect(
      unitOfWork(database, (tx) => generic.sites.update(tx, site.id, { 'title = 1; --': 'x' } as never)),
    ).rejects.toThrow(/not a written field/);

    await unitOfWork(database, async (tx) => {
      expect(await generic.sites.countLive(tx, 'companies', company.id)).toBe(1);
      expect((await generic.sites.liveOf(tx, 'companies', company.id)).map((s) => s.id)).toEqual([site.id]);
      expect((await hand.sites.liveOfCompany(tx, company.id)).map((s) => Number(s.id))).toEqual([site.id]);
      await generic.sites.decommission(tx, site.id);
      expect(await generic.sites.countLive(tx, 'companies', company.id)).toBe(0);
      expect(await hand.sites.liveOfCompany(tx, company.id)).toEqual([]);
    });
    expect((await generic.sites.byId(site.id))!.decommissioned_at).not.toBeNull();
    expect((await hand.sites.byId(site.id))!.decommissioned_at).not.toBeNull();
    expect(await generic.sites.list(org.agentId, { ...all, companyId: company.id })).toEqual([]);
  });

  it('counts and lists the live children of a parent as the hand-written repository does', async () => {
    const query = database.query.bind(database);
    for (const siteId of await pumpSites()) {
      const theirs = await hand.pumps.liveOfSite(query, siteId);
      expect(await generic.pumps.countLive(query, 'sites', siteId)).toBe(theirs.length);
      expect((await generic.pumps.liveOf(query, 'sites', siteId)).map((p) => p.pump_no).sort()).toEqual(
        theirs.map((p) => Number(p.pump_no)).sort(),
      );
    }
    await expect(generic.pumps.countLive(query, 'companies', 1)).rejects.toThrow(/not one of its parents/);
  });

  it('is made for every entity without a hand-written repository, and refuses a table of another shape', () => {
    const names = ['companies', 'sites', 'terminals', 'pumps', 'users'] as const;
    const made = adminEntityRepositories(database, names, { users: 1, terminals: 1 });
    expect(Object.keys(made).sort()).toEqual(['companies', 'pumps', 'sites']);
    expect(Object.keys(adminEntityRepositories(database, names, handWritten()))).toEqual([]);
    // Every administered entity has a repository in app.repos, written by hand or not.
    const repos = createRepositories(database, {} as Env);
    for (const name of ADMIN_ENTITY_NAMES) expect(repos, name).toHaveProperty(name);
    // Users have no decommissioned_at and reach companies and sites through tables of their own.
    expect(() => createAdminEntityRepository(database, 'users')).toThrow(/no decommissioned_at/);
  });
});

/** The entities app.repos holds by hand today. */
const handWritten = () => ({ companies: 1, sites: 1, terminals: 1, pumps: 1, users: 1 });
