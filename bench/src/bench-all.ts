import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { postgresReachable } from './lib/postgres.ts';

/**
 * npm run bench — every benchmark in sequence, each in its own process: server, api and ingest on PGlite and
 * (when reachable) PostgreSQL, and the web bench when present. Extra arguments are passed to each.
 */
const here = path.dirname(fileURLToPath(import.meta.url));
const extra = process.argv.slice(2);
const dbs = (await postgresReachable()) ? ['pglite', 'postgres'] : ['pglite'];
if (dbs.length === 1) console.log('PostgreSQL is not reachable at 127.0.0.1:5432: PGlite only');

const runs: Array<{ file: string; args: string[] }> = [];
for (const name of ['bench-server', 'bench-api', 'bench-ingest']) {
  for (const db of dbs) runs.push({ file: `${name}.ts`, args: ['--db', db, ...extra] });
}
if (existsSync(path.join(here, 'bench-web.ts'))) runs.push({ file: 'bench-web.ts', args: extra });

const failed: string[] = [];
for (const run of runs) {
  const label = `${run.file} ${run.args.join(' ')}`.trim();
  const r = spawnSync(process.execPath, ['--import', 'tsx', path.join(here, run.file), ...run.args], {
    stdio: 'inherit',
    cwd: path.resolve(here, '..'),
  });
  if (r.status !== 0) failed.push(label);
}
console.log(
  `\n${runs.length - failed.length} benchmarks finished, ${failed.length} failed${failed.length ? `: ${failed.join('; ')}` : ''}`,
);
process.exit(failed.length ? 1 : 0);
