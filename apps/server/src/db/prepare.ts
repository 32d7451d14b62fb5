/**
 * Entry point of a short-lived process (started by first-start.ts): creates a new embedded database, applies
 * the migrations, seeds it and exits. PGlite's WebAssembly memory peaks near 1 GB during the first creation and
 * never shrinks within a process, so the server does this work here and then opens the finished data folder
 * (docs/deploying.md). Reports what it seeded to its parent over the IPC channel.
 */
import { loadEnv } from '../config/env.ts';
import { openDatabase } from './client.ts';
import { ensureSeeded } from './seed/index.ts';

// A server that dies meanwhile closes the channel: stop rather than finish a database nobody waits for.
process.on('disconnect', () => process.exit(1));
try {
  const config = loadEnv();
  const database = await openDatabase({ dataDir: config.DATA_DIR });
  await database.migrate();
  const seeded = await ensureSeeded(database, config.SEED);
  await database.close();
  if (process.send) process.send({ seeded }, () => process.exit(0));
  else console.log(`database ready (seed: ${seeded})`);
} catch (err) {
  console.error(
    `Forecourt could not create its database: ${err instanceof Error ? err.message : String(err)}`,
  );
  process.exit(1);
}
