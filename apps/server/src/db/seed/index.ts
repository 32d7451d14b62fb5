import type { Database } from '../client.ts';
import { seedDemo } from './demo.ts';
import { seedLarge } from './large.ts';

export type SeedMode = 'demo' | 'none' | 'large';

/** Serialises concurrent first starts against one PostgreSQL database. */
const SEED_LOCK = 724_011;

/**
 * Seeds on first start; a restart keeps the data and does not re-seed (meta 'seed' marks it done).
 * 'none' starts empty. A database that already holds users or agents is never seeded over.
 * 'large' hands over to the scale generator (idempotent on its own).
 * Returns what it did: 'demo' | 'large', 'kept:<mode>' (seeded before), 'none', 'skipped:not-empty'.
 */
export async function ensureSeeded(
  database: Database,
  mode: SeedMode,
  opts: { now?: Date } = {},
): Promise<string> {
  if (mode === 'large') {
    // The scale generator keeps its own marker and adds the demo fleet when it is missing.
    await seedLarge(database, opts);
    await database.query(
      `insert into meta (key, value) values ('seed', 'large') on conflict (key) do nothing`,
    );
    return 'large';
  }
  const done = await database.query<{ value: string }>(`select value from meta where key = 'seed'`);
  if (done[0]) return `kept:${done[0].value}`;
  if (mode === 'none') return 'none';
  return database.transaction(async (query) => {
    await query('select pg_advisory_xact_lock($1)', [SEED_LOCK]);
    const again = await query<{ value: string }>(`select value from meta where key = 'seed'`);
    if (again[0]) return `kept:${again[0].value}`;
    const [row] = await query<{ n: number }>(
      'select (select count(*) from users)::int + (select count(*) from agents)::int as n',
    );
    if ((row?.n ?? 0) > 0) return 'skipped:not-empty';
    await seedDemo(query, opts.now);
    await query(`insert into meta (key, value) values ('seed', 'demo')`);
    return 'demo';
  });
}
