import { describe, expect, it } from 'vitest';
import type { Database } from '../src/db/client.ts';
import { postgresUnavailable } from './helper.ts';
import { demoBesideDatabaseUpTo } from './old-database.ts';

const COLUMNS =
  'id, terminal_id, site_id, at, battery_life, flash_left, temperature_main_board, temperature_inside_cabinet, humidity_inside_cabinet, lat, lng';

const byTerminal = (db: Database) =>
  db.query<{ terminal_id: number; n: number; ids: string; battery: number | null }>(
    `select terminal_id, count(*)::int as n, sum(id)::text as ids, sum(battery_life) as battery
       from telemetry group by terminal_id order by terminal_id`,
  );

describe.skipIf(postgresUnavailable)('migration 0007: telemetry partitioned by day', () => {
  const dbs = demoBesideDatabaseUpTo('0005_change_feed');

  it('converts a database holding the demo telemetry without losing a row, by terminal', async () => {
    // The demo fleet's readings, as a database of the old shape holds them.
    const rows = await dbs.demo.query<Record<string, unknown>>(
      `select ${COLUMNS} from telemetry order by id`,
    );
    expect(rows.length).toBeGreaterThan(10_000);
    const col = (name: string) => rows.map((r) => r[name]);
    await dbs.old.query(
      `insert into telemetry (${COLUMNS})
       select * from unnest($1::bigint[], $2::int[], $3::int[], $4::timestamptz[], $5::float8[], $6::float8[],
                            $7::float8[], $8::float8[], $9::float8[], $10::float8[], $11::float8[])`,
      COLUMNS.split(', ').map(col),
    );
    await dbs.old.query(`select setval('telemetry_id_seq', (select max(id) from telemetry))`);
    const before = await byTerminal(dbs.old);
    const [{ relkind: kindBefore } = { relkind: '' }] = await dbs.old.query<{ relkind: string }>(
      `select relkind from pg_class where relname = 'telemetry'`,
    );
    expect(kindBefore).toBe('r');

    await dbs.old.migrate();

    expect(await byTerminal(dbs.old)).toEqual(before);
    const [{ relkind } = { relkind: '' }] = await dbs.old.query<{ relkind: string }>(
      `select relkind from pg_class where relname = 'telemetry'`,
    );
    expect(relkind).toBe('p');
    // Every row sits in a daily partition (none in the default one), and new rows go on after the old ids.
    expect(await dbs.old.query('select count(*)::int as n from telemetry_default')).toEqual([{ n: 0 }]);
    const [partitions] = await dbs.old.query<{ n: number }>(
      `select count(*)::int as n from pg_inherits where inhparent = 'telemetry'::regclass`,
    );
    expect(partitions!.n).toBeGreaterThanOrEqual(15);
    const [maxId] = await dbs.old.query<{ id: string }>('select max(id)::text as id from telemetry');
    const [added] = await dbs.old.query<{ id: string }>(
      `insert into telemetry (terminal_id, site_id, at, battery_life) values (1, 1, now(), 50) returning id::text`,
    );
    expect(BigInt(added!.id)).toBeGreaterThan(BigInt(maxId!.id));
  }, 180_000);
});
