import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { authHeader, cannon, type LoadResult, login } from './lib/load.ts';
import { freshDatabase, postgresReachable } from './lib/postgres.ts';
import { fmt, parseArgs, runIfMain, table, waitForQuiet, writeResult } from './lib/report.ts';
import { startServer } from './lib/server.ts';

/**
 * bench:server — the foundation's figures: cold start (time to the first /api/health, RSS) for a new and a
 * reopened database; sign-in and GET /api/user/ throughput and p99 next to a hello-world route
 * (/api/health) measured in the same run, as ratios.
 */
export async function benchServer(argv = process.argv.slice(2)) {
  const args = parseArgs(argv);
  const seconds = args.duration;
  const connections = Number(args.flags.get('connections') ?? 50);
  console.log(
    `\n== bench:server on ${args.db} (${seconds} s per measurement, ${connections} connections) ==`,
  );

  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'forecourt-bench-server-'));
  let pgDb: Awaited<ReturnType<typeof freshDatabase>> | null = null;
  if (args.db === 'postgres') {
    if (!(await postgresReachable())) throw new Error('PostgreSQL is not reachable at 127.0.0.1:5432');
    pgDb = await freshDatabase('forecourt_bench_server');
  }
  const serverOpts = { dataDir, databaseUrl: pgDb?.url, seed: 'demo' as const };
  try {
    await waitForQuiet(args.wait);
    // 1. A new database: create (PGlite files or an empty PostgreSQL database), migrate, seed the demo fleet.
    const fresh = await startServer(serverOpts);
    const coldNew = { startMs: fresh.startMs, rssMb: fresh.rssMb(), peakRssMb: fresh.peakRssMb() };
    await fresh.stop();
    // 2. The same database reopened: what every later start costs.
    const server = await startServer(serverOpts);
    const coldReopen = { startMs: server.startMs, rssMb: server.rssMb(), peakRssMb: server.peakRssMb() };
    table([
      {
        start: `new ${args.db === 'pglite' ? 'DATA_DIR' : 'database'} (migrate + demo seed)`,
        ms: coldNew.startMs,
        'RSS MB': coldNew.rssMb,
        'peak RSS MB': coldNew.peakRssMb,
      },
      {
        start: `reopened ${args.db === 'pglite' ? 'DATA_DIR' : 'database'}`,
        ms: coldReopen.startMs,
        'RSS MB': coldReopen.rssMb,
        'peak RSS MB': coldReopen.peakRssMb,
      },
    ]);

    try {
      const token = await login(server.url);
      const base = { connections, duration: seconds };
      await cannon({ ...base, url: `${server.url}/api/health`, duration: 2 });
      const health = await cannon({ ...base, url: `${server.url}/api/health` });
      await cannon({ ...base, url: `${server.url}/api/user/`, headers: authHeader(token), duration: 2 });
      const user = await cannon({ ...base, url: `${server.url}/api/user/`, headers: authHeader(token) });
      // Correct sign-ins are never limited (only failures count, docs/deploying.md): the argon2id check is
      // what is measured.
      const loginResult = await cannon({
        connections: 16,
        duration: seconds,
        url: `${server.url}/api/auth/login`,
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'agent', password: 'demo1234' }),
      });
      const rssAfterLoad = server.rssMb();
      const row = (name: string, r: LoadResult) => ({
        route: name,
        'req/s': r.okRps,
        'p50 ms': r.p50,
        'p99 ms': r.p99,
        errors: r.errors,
        'vs hello': r.okRps / health.okRps,
      });
      console.log('');
      table([
        row('GET /api/health (hello world)', health),
        row('GET /api/user/', user),
        row('POST /api/auth/login', loginResult),
      ]);
      console.log(
        `\nratios: /api/user/ ÷ hello = ${fmt(user.okRps / health.okRps, 3)}; login ÷ hello = ${fmt(loginResult.okRps / health.okRps, 4)}; RSS after load ${fmt(rssAfterLoad)} MB`,
      );
      const figures = {
        db: args.db,
        seconds,
        connections,
        coldStart: { new: coldNew, reopened: coldReopen },
        health,
        user,
        login: loginResult,
        ratios: { userVsHello: user.okRps / health.okRps, loginVsHello: loginResult.okRps / health.okRps },
        rssAfterLoadMb: rssAfterLoad,
      };
      console.log(`results: ${writeResult(`server-${args.db}`, figures)}`);
      return figures;
    } finally {
      await server.stop();
    }
  } finally {
    await pgDb?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

runIfMain(import.meta.url, benchServer);
