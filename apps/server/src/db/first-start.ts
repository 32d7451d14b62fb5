import { fork } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Env } from '../config/env.ts';
import { nodeEntry } from '../lib/runtime.ts';

/** Whether the embedded database in dataDir has yet to be created (PGlite writes PG_VERSION when it creates one). */
export function isNewEmbeddedDatabase(dataDir: string): boolean {
  return !existsSync(path.resolve(dataDir, 'pglite', 'PG_VERSION'));
}

/**
 * On the embedded database's first start, creates, migrates and seeds it in a child process (db/prepare.ts) so
 * that the server process never carries the creation's memory peak (docs/deploying.md, "Memory"). Returns what
 * was seeded ('demo', 'none', ...), or null when there was nothing to prepare (PostgreSQL, or an existing data
 * folder: the server migrates and checks the seed itself, which is cheap).
 */
export async function prepareNewEmbeddedDatabase(config: Env): Promise<string | null> {
  if (config.DATABASE_URL || !isNewEmbeddedDatabase(config.DATA_DIR)) return null;
  const entry = nodeEntry('db/prepare.ts');
  const child = fork(entry.file, [], {
    execArgv: entry.execArgv,
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  let seeded: string | null = null;
  child.on('message', (m: { seeded?: string }) => {
    if (typeof m?.seeded === 'string') seeded = m.seeded;
  });
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (c, signal) => resolve(signal ? 128 : c));
  });
  if (code !== 0 || seeded === null) {
    throw new Error(
      `the new embedded database in ${path.resolve(config.DATA_DIR)} could not be created (exit ${code})`,
    );
  }
  return seeded;
}
