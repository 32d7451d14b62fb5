import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { cacheDir } from './lib/dataset.ts';
import { authHeader, json, login } from './lib/load.ts';
import { freshDatabase, postgresReachable } from './lib/postgres.ts';
import { fmt, parseArgs, runIfMain, table, waitForQuiet, writeResult } from './lib/report.ts';
import { startServer } from './lib/server.ts';

const HEADER = 'company,site_number,site_title,lat,lng,timezone,terminal_id,pumps';

/** `rows` CSV lines: sites of 4 terminals and 4 pumps each, under one new company. */
function fleetCsv(rows: number, tag: string): string {
  const lines = [HEADER];
  for (let i = 0; i < rows; i++) {
    const site = Math.floor(i / 4);
    const lat = (50 + (site % 800) / 100).toFixed(4);
    const lng = (-5 + (site % 700) / 100).toFixed(4);
    lines.push(
      `Bench ${tag},${site + 1},Forecourt ${site + 1},${lat},${lng},Europe/London,${tag}-T${i + 1},4`,
    );
  }
  return `${lines.join('\n')}\n`;
}

interface Timed {
  ms: number;
  created: number;
  updated: number;
  unchanged: number;
  errors: number;
}

/**
 * bench:import — `POST /api/admin/import/` with 10,000 rows (2,500 sites, 10,000 terminals, 10,000 pumps, one
 * transaction), next to the dry run of the same file in the same run (parsing, checking and matching without
 * writing: the baseline), and a re-import where every row is unchanged.
 */
export async function benchImport(argv = process.argv.slice(2)) {
  const args = parseArgs(argv);
  const rows = Number(args.flags.get('rows') ?? 10_000);
  const port = args.flags.get('port') ? Number(args.flags.get('port')) : undefined;
  console.log(`\n== bench:import on ${args.db}: ${fmt(rows)} CSV rows ==`);
  const dataDir = path.join(cacheDir, `import-${Date.now().toString(36)}`);
  mkdirSync(dataDir, { recursive: true });
  let database: { url: string; drop: () => Promise<void> } | null = null;
  try {
    if (args.db === 'postgres') {
      if (!(await postgresReachable())) throw new Error('PostgreSQL is not reachable at 127.0.0.1:5432');
      database = await freshDatabase(args.flags.get('db-prefix') ?? 'forecourt_bench_import');
    }
    const server = await startServer({ dataDir, databaseUrl: database?.url, seed: 'demo', port });
    try {
      const token = await login(server.url);
      const post = async (csv: string, dryRun: boolean): Promise<Timed> => {
        const t0 = performance.now();
        const r = await json<Omit<Timed, 'ms'>>(`${server.url}/api/admin/import/?dry_run=${dryRun}`, {
          method: 'POST',
          headers: { ...authHeader(token), 'content-type': 'text/csv' },
          body: csv,
          expect: [200],
        });
        const ms = performance.now() - t0;
        const { created, updated, unchanged, errors } = r.body;
        return { ms, created, updated, unchanged, errors };
      };
      // Warm-up on a small file of its own (first requests compile and fill caches).
      await post(fleetCsv(100, 'warm'), false);
      await waitForQuiet(args.wait);
      const csv = fleetCsv(rows, `b${Date.now().toString(36)}`);
      const dry = await post(csv, true);
      const real = await post(csv, false);
      const again = await post(csv, false);
      if (dry.errors || real.errors || real.created !== rows || again.unchanged !== rows) {
        throw new Error(`unexpected answers: ${JSON.stringify({ dry, real, again })}`);
      }
      const out = [
        { run: 'dry run (baseline: parse, check, match)', ...dry },
        { run: 'import (writes, one transaction)', ...real },
        { run: 're-import (all unchanged)', ...again },
      ].map((r) => ({
        run: r.run,
        ms: r.ms,
        'rows/s': (rows / r.ms) * 1000,
        '÷ dry run': r.ms / dry.ms,
        created: r.created,
        unchanged: r.unchanged,
      }));
      console.log('');
      table(out);
      console.log(
        `\nimport of ${fmt(rows)} rows on ${args.db}: ${fmt(real.ms)} ms (${fmt((rows / real.ms) * 1000)} rows/s), ${fmt(real.ms / dry.ms, 2)}× the dry run of the same file`,
      );
      const figures = { db: args.db, rows, dry, real, again };
      console.log(`results: ${writeResult(`import-${args.db}`, figures)}`);
      return figures;
    } finally {
      await server.stop();
    }
  } finally {
    await database?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

runIfMain(import.meta.url, benchImport);
