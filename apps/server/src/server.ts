import { buildApp } from './app.ts';
import { ConfigError, loadEnv } from './config/env.ts';
import { openDatabase } from './db/client.ts';
import { prepareNewEmbeddedDatabase } from './db/first-start.ts';
import { ensureSeeded } from './db/seed/index.ts';
import { describeDatabase, loggerOptions } from './lib/logging.ts';
import { createSharedSettingsRepository } from './repositories/settings-repository.ts';
import { startBackground } from './services/background.ts';
import { resolveJwtSecret } from './services/tokens.ts';

async function main() {
  let config: ReturnType<typeof loadEnv>;
  try {
    config = loadEnv();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(1);
    }
    throw err;
  }

  const started = Date.now();
  // A new embedded database is created and seeded in a short-lived child process (its memory peak stays there).
  const prepared = await prepareNewEmbeddedDatabase(config);
  const database = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR });
  // Nodes started together on one empty PostgreSQL migrate and seed one after the other.
  const seeded = await database.exclusive(async () => {
    await database.migrate();
    return prepared ?? (await ensureSeeded(database, config.SEED));
  });
  // Requests never wait on a database that stopped answering (docs/deploying.md).
  database.setQueryTimeout?.(9_000);

  const app = await buildApp({
    config,
    database,
    // JWT_SECRET, else the secret every node shares in the database (a token from one node works on all).
    jwtSecret: await resolveJwtSecret(
      config.JWT_SECRET,
      createSharedSettingsRepository(database),
      config.DATA_DIR,
    ),
    logger: loggerOptions(config),
  });
  app.server.keepAliveTimeout = 65_000;
  app.server.requestTimeout = 60_000;

  let stopping = false;
  const background = { stop: async () => {} };
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), 15_000);
    force.unref();
    try {
      await background.stop();
      await app.close();
      await database.close();
      process.exit(0);
    } catch (err) {
      app.log.error({ err }, 'shutdown failed');
      process.exit(1);
    }
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  const address = await app.listen({ port: config.PORT, host: config.HOST });
  const running = await startBackground(app, { address });
  background.stop = running.stop;
  app.metrics.leaderFrom(() => running.leader.isLeader);
  // The start banner: where the console is, which database, and on the demo fleet how to sign in.
  const url = `http://localhost:${(app.server.address() as { port: number }).port}`;
  const where = describeDatabase(config);
  app.log.info(
    { address, database: database.kind, where, seeded, startupMs: Date.now() - started },
    `Forecourt is serving on ${url} (${where}; ready in ${((Date.now() - started) / 1000).toFixed(1)} s)`,
  );
  if (/demo|large/.test(seeded)) {
    app.log.info(
      { demoUsers: ['agent', 'company', 'site'] },
      `Demo fleet: open ${url} and sign in as agent, company or site, password demo1234`,
    );
  }
}

main().catch((err) => {
  console.error(`Forecourt failed to start: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
