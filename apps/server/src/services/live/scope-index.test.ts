import { describe, expect, it } from 'vitest';
import type { Change } from '../../repositories/change-repository.ts';
import { type Item, reaches, ScopeIndex } from './scope-index.ts';

const change = (id: number, over: Partial<Change> = {}): Change => ({
  id,
  kind: 'telemetry',
  agentId: null,
  companyId: null,
  siteId: null,
  terminalId: null,
  pumpId: null,
  userId: null,
  at: new Date('2026-11-24T10:00:00.000Z'),
  ...over,
});
const encode = (c: Change): Item => ({ id: c.id, json: String(c.id) });

const agent = { agentId: 1, companyIds: [], siteIds: [] };
const company = { agentId: null, companyIds: [10, 11], siteIds: [] };
const site = { agentId: null, companyIds: [], siteIds: [100] };

describe('scope index', () => {
  it('a change reaches an agent by its agent id, a company user by its companies, a site user by its sites', () => {
    const atSite = change(1, { agentId: 1, companyId: 10, siteId: 100 });
    expect([reaches(agent, atSite), reaches(company, atSite), reaches(site, atSite)]).toEqual([
      true,
      true,
      true,
    ]);
    const elsewhere = change(2, { agentId: 1, companyId: 11, siteId: 101 });
    expect([reaches(agent, elsewhere), reaches(company, elsewhere), reaches(site, elsewhere)]).toEqual([
      true,
      true,
      false,
    ]);
    const otherAgent = change(3, { agentId: 2, companyId: 12, siteId: 102 });
    expect([reaches(agent, otherAgent), reaches(company, otherAgent), reaches(site, otherAgent)]).toEqual([
      false,
      false,
      false,
    ]);
    // Internal kinds reach nobody, whatever their ids.
    expect(reaches(agent, change(4, { kind: 'session', agentId: 1, userId: 5 }))).toBe(false);
    expect(reaches(site, change(5, { kind: 'device', siteId: 100 }))).toBe(false);
  });

  it('groups members by scope and hands each group its changes once, in id order, each encoded once', () => {
    const index = new ScopeIndex<string>();
    const a1 = index.join('a1', agent);
    const a2 = index.join('a2', { ...agent });
    const c = index.join('c', company);
    const s = index.join('s', site);
    expect(a1).toBe(a2);
    expect(index.size).toBe(3);
    let encoded = 0;
    const reached = index.match(
      [
        change(1, { agentId: 1, companyId: 10, siteId: 100 }),
        change(2, { kind: 'session', agentId: 1, userId: 9 }),
        change(3, { agentId: 2, companyId: 11 }),
        change(4, { siteId: 100 }),
        change(5, { agentId: 3, companyId: 12, siteId: 102 }),
      ],
      (x) => {
        encoded++;
        return encode(x);
      },
    );
    const ids = (g: typeof a1) => reached.get(g)?.map((i) => i.id);
    expect(ids(a1)).toEqual([1]);
    expect(ids(c)).toEqual([1, 3]);
    expect(ids(s)).toEqual([1, 4]);
    expect(reached.size).toBe(3);
    expect(encoded).toBe(3);
    // The same item for every group it reaches.
    expect(reached.get(a1)![0]).toBe(reached.get(c)![0]);
  });

  it('a change already matched for a group is not matched again (a feed read that repeats)', () => {
    const index = new ScopeIndex<string>();
    const g = index.join('m', company);
    expect(index.match([change(7, { companyId: 10 })], encode).get(g)?.length).toBe(1);
    expect(index.match([change(7, { companyId: 10 }), change(8, { companyId: 11 })], encode).get(g)).toEqual([
      { id: 8, json: '8' },
    ]);
  });

  it('a group goes with its last member, and no change reaches it after that', () => {
    const index = new ScopeIndex<string>();
    const g = index.join('x', site);
    index.join('y', site);
    index.leave('x', g);
    expect(index.match([change(1, { siteId: 100 })], encode).get(g)?.length).toBe(1);
    index.leave('y', g);
    expect(index.size).toBe(0);
    expect(index.match([change(2, { siteId: 100 })], encode).size).toBe(0);
    // Joining again makes a new group that receives changes.
    const again = index.join('z', site);
    expect(again).not.toBe(g);
    expect(
      index
        .match([change(3, { siteId: 100 })], encode)
        .get(again)
        ?.map((i) => i.id),
    ).toEqual([3]);
  });
});
