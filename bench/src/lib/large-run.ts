import pg from 'pg';
import { largeDataset } from './dataset.ts';
import { type Args, parseArgs } from './report.ts';
import { type ServerHandle, startServer } from './server.ts';

export interface LargeRun {
  args: Args;
  scale: number;
  /** A pool straight on the data set's database, for SQL next to the server's answers. */
  pool: pg.Pool;
  server: ServerHandle;
}

/**
 * Runs `bench` on the scale data set (SEED=large, `--scale`, default `defaultScale` or 0.05; `history`: with LARGE_HISTORY=1)
 * through the real server pinned to `--server-cpus` (default 1), then stops the server and drops the data set.
 * PostgreSQL only: with another `--db` it says so and answers null.
 */
export async function onLargeDataset<T>(
  name: string,
  argv: string[],
  opts: { history?: boolean; poolMax: number; defaultScale?: number },
  bench: (run: LargeRun) => Promise<T>,
): Promise<T | null> {
  const args = parseArgs(argv.includes('--db') ? argv : [...argv, '--db', 'postgres']);
  if (args.db !== 'postgres') {
    console.log(`bench:${name} runs on PostgreSQL only (--db postgres)`);
    return null;
  }
  const scale = Number(args.flags.get('scale') ?? opts.defaultScale ?? 0.05);
  console.log(
    `\n== bench:${name} on postgres, LARGE_SCALE=${scale}${opts.history ? ' with LARGE_HISTORY=1' : ''} ==`,
  );
  const target = await largeDataset('postgres', scale, { history: opts.history });
  const pool = new pg.Pool({ connectionString: target.databaseUrl, max: opts.poolMax });
  const server = await startServer({
    dataDir: target.dataDir,
    databaseUrl: target.databaseUrl,
    seed: 'large',
    env: { ...(opts.history ? { LARGE_HISTORY: '1' } : {}), LARGE_SCALE: String(scale) },
    cpus: args.flags.get('server-cpus') ?? '1',
    readyTimeoutMs: 600_000,
  });
  try {
    return await bench({ args, scale, pool, server });
  } finally {
    await server.stop();
    await pool.end();
    await target.cleanup();
  }
}
