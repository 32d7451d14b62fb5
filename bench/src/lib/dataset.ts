import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import {
  databaseExists,
  dropDatabase,
  freshDatabase,
  postgresReachable,
  renameDatabase,
} from './postgres.ts';
import { repoRoot, type ServerHandle, type ServerOptions, startServer } from './server.ts';

/** Where built scale data sets are kept between runs (gitignored). */
export const cacheDir = path.join(repoRoot, 'bench', '.cache');

export interface Target {
  dataDir: string;
  databaseUrl?: string;
  /** Drops what the run made (the fresh PostgreSQL database copy). */
  cleanup(): Promise<void>;
}

/**
 * Raised whenever apps/server/src/db/seed/large.ts changes what it builds, so a kept data set of the old seed is
 * not mistaken for the new one (2: a month of offline history, acknowledgements and maintenance windows).
 */
const SEED_REVISION = 2;
const scaleTag = (scale: number) => `r${SEED_REVISION}_${String(scale).replace('.', '_')}`;

/**
 * The scale data set (SEED=large at LARGE_SCALE=scale), built once through the real server and kept:
 * PGlite in bench/.cache/large-<scale>/, PostgreSQL as a template database copied fresh for every run.
 */
export async function largeDataset(
  db: 'pglite' | 'postgres',
  scale: number,
  opts: { history?: boolean } = {},
): Promise<Target> {
  mkdirSync(cacheDir, { recursive: true });
  // LARGE_HISTORY=1: 90 days of telemetry and two years of roll-ups (bench:history), kept apart from the plain set.
  const env: Record<string, string> = { LARGE_SCALE: String(scale), LARGE_HISTORY: opts.history ? '1' : '0' };
  const kind = opts.history ? 'history' : 'large';
  if (db === 'pglite') {
    const dataDir = path.join(cacheDir, `${kind}-${scaleTag(scale)}`);
    const ready = path.join(dataDir, 'bench-ready');
    if (!existsSync(ready)) {
      rmSync(dataDir, { recursive: true, force: true });
      console.log(`building the scale data set (LARGE_SCALE=${scale}) on PGlite in ${dataDir} — once`);
      const s = await startServer({ dataDir, seed: 'large', env, readyTimeoutMs: 3_600_000, echoSeed: true });
      await s.stop();
      writeFileSync(ready, new Date().toISOString());
    }
    return { dataDir, cleanup: async () => {} };
  }
  if (!(await postgresReachable())) throw new Error('PostgreSQL is not reachable at 127.0.0.1:5432');
  const template = `forecourt_bench_${kind}_${scaleTag(scale)}`;
  const dataDir = path.join(cacheDir, `pg-${opts.history ? 'history-' : ''}${scaleTag(scale)}`);
  mkdirSync(dataDir, { recursive: true });
  if (!(await databaseExists(template))) {
    console.log(
      `building the scale data set (LARGE_SCALE=${scale}) on PostgreSQL as template ${template} — once`,
    );
    const building = await freshDatabase(`${template}_building`);
    try {
      const s = await startServer({
        dataDir,
        databaseUrl: building.url,
        seed: 'large',
        env,
        readyTimeoutMs: 3_600_000,
        echoSeed: true,
      });
      await s.stop();
      await renameDatabase(new URL(building.url).pathname.slice(1), template);
    } catch (err) {
      await building.drop();
      throw err;
    }
  }
  const t0 = performance.now();
  const copy = await freshDatabase('forecourt_bench_run', template);
  console.log(`fresh copy of ${template} in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  return { dataDir, databaseUrl: copy.url, cleanup: copy.drop };
}

/** A fresh demo database: a new PGlite DATA_DIR or a new PostgreSQL database. */
export async function demoDataset(db: 'pglite' | 'postgres', name: string): Promise<Target> {
  const dataDir = path.join(cacheDir, `${name}-${Date.now().toString(36)}`);
  mkdirSync(dataDir, { recursive: true });
  if (db === 'pglite')
    return { dataDir, cleanup: async () => rmSync(dataDir, { recursive: true, force: true }) };
  if (!(await postgresReachable())) throw new Error('PostgreSQL is not reachable at 127.0.0.1:5432');
  const fresh = await freshDatabase(`forecourt_bench_${name}`);
  return {
    dataDir,
    databaseUrl: fresh.url,
    cleanup: async () => {
      await fresh.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Starts the server on a data set (waiting up to ten minutes for a first seed), with `more` options. */
export async function startOn(
  target: Target,
  seed: 'demo' | 'large' = 'demo',
  more: Omit<ServerOptions, 'dataDir' | 'databaseUrl' | 'seed'> = {},
): Promise<ServerHandle> {
  return startServer({
    dataDir: target.dataDir,
    databaseUrl: target.databaseUrl,
    seed,
    readyTimeoutMs: 600_000,
    ...more,
  });
}

export { dropDatabase };
