import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/client.ts';
import { carrierOf, carrierSql } from '../src/repositories/pump-carrier.ts';
import { openDemoDatabase, postgresUnavailable } from './helper.ts';

/** The carrier rule's two forms (SQL and in memory) pick the same terminal of every site of the demo fleet. */
describe.skipIf(postgresUnavailable)('the pump carrier rule on a database', () => {
  let database: Database;
  beforeAll(async () => {
    database = await openDemoDatabase();
  });
  afterAll(() => database?.close());

  async function bothForms() {
    const sites = await database.query<{ id: number; carrier: number | null }>(
      `select s.id, ${carrierSql('s.id')} as carrier from sites s order by s.id`,
    );
    const terminals = await database.query<{
      id: number;
      site_id: number;
      pump_controller: boolean;
      decommissioned: boolean;
    }>('select id, site_id, pump_controller, decommissioned_at is not null as decommissioned from terminals');
    return sites.map((s) => ({
      site: Number(s.id),
      sql: s.carrier === null ? null : Number(s.carrier),
      memory:
        carrierOf(
          terminals
            .filter((t) => Number(t.site_id) === Number(s.id))
            .map((t) => ({
              id: Number(t.id),
              pumpController: t.pump_controller,
              decommissioned: t.decommissioned,
            })),
        )?.id ?? null,
    }));
  }

  it('agree on the seeded fleet, where every site has a carrier', async () => {
    const all = await bothForms();
    expect(all.length).toBeGreaterThan(10);
    for (const s of all) expect(s.sql, `site ${s.site}`).toBe(s.memory);
    expect(all.every((s) => s.sql !== null)).toBe(true);
  });

  it('agree when the controller is gone: the oldest live terminal carries, and none without live terminals', async () => {
    const [site1] = await database.query<{ id: number }>('select min(id) as id from sites');
    await database.query(
      `update terminals set pump_controller = false, decommissioned_at = case when id = (select min(id) from terminals
        where site_id = $1) then now() end where site_id = $1`,
      [site1.id],
    );
    const [site2] = await database.query<{ id: number }>('select min(id) as id from sites where id > $1', [
      site1.id,
    ]);
    await database.query('update terminals set decommissioned_at = now() where site_id = $1', [site2.id]);
    const all = await bothForms();
    for (const s of all) expect(s.sql, `site ${s.site}`).toBe(s.memory);
    const [second] = await database.query<{ id: number }>(
      'select id from terminals where site_id = $1 order by id offset 1 limit 1',
      [site1.id],
    );
    expect(all.find((s) => s.site === Number(site1.id))?.sql).toBe(Number(second.id));
    expect(all.find((s) => s.site === Number(site2.id))?.sql).toBeNull();
  });

  it('leaves out the terminal about to go', async () => {
    const [row] = await database.query<{ site_id: number; carrier: number; other: number | null }>(
      `select s.id as site_id, ${carrierSql('s.id')} as carrier, ${carrierSql('s.id', carrierSql('s.id'))} as other
         from sites s where ${carrierSql('s.id')} is not null order by s.id desc limit 1`,
    );
    expect(row.other).not.toBe(row.carrier);
  });
});
