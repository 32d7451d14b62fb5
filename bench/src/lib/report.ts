import { execSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { repoRoot } from './server.ts';

export function machine() {
  return {
    cpus: os.cpus().length,
    cpuModel: os.cpus()[0]?.model ?? 'unknown',
    memoryGb: Math.round(os.totalmem() / 1024 ** 3),
    node: process.version,
    platform: `${os.platform()} ${os.release()}`,
    /** 1-minute load average when the figures were taken: above ~1 on 2 cores, something else competed. */
    loadAverage: Number(os.loadavg()[0].toFixed(2)),
  };
}

/**
 * Benchmarks on a shared machine: waits (up to `maxSeconds`) for the 1-minute load average to drop below
 * `threshold`, then goes on either way, saying so.
 */
export async function waitForQuiet(maxSeconds = 120, threshold = 1): Promise<void> {
  const deadline = Date.now() + maxSeconds * 1000;
  let said = false;
  while (os.loadavg()[0] >= threshold && Date.now() < deadline) {
    if (!said) console.log(`waiting for the machine to quieten (load ${os.loadavg()[0].toFixed(2)}) ...`);
    said = true;
    await new Promise((r) => setTimeout(r, 5000));
  }
  const load = os.loadavg()[0];
  if (load >= threshold)
    console.log(`warning: load average ${load.toFixed(2)}; figures are lower than on an idle machine`);
}

/** The load average as `uptime` prints it (1, 5 and 15 minutes), to print beside figures. */
export const uptimeLoad = () =>
  execSync('uptime')
    .toString()
    .trim()
    .replace(/^.*load average: /, '');

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;

/** p50, p95 and count of durations (ms). */
export function summary(ms: number[]) {
  const sorted = [...ms].sort((a, b) => a - b);
  return { p50: percentile(sorted, 50), p95: percentile(sorted, 95), n: sorted.length };
}

/** Writes bench/results/<name>.json and returns its path. */
export function writeResult(name: string, figures: unknown): string {
  const dir = path.join(repoRoot, 'bench', 'results');
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${name}.json`);
  writeFileSync(
    file,
    `${JSON.stringify({ name, date: new Date().toISOString(), machine: machine(), figures }, null, 2)}\n`,
  );
  return file;
}

export const fmt = (n: number, digits = 0) =>
  Number.isFinite(n)
    ? n.toLocaleString('en', { maximumFractionDigits: digits, minimumFractionDigits: digits })
    : '-';

/** Prints rows as an aligned table. */
export function table(rows: Array<Record<string, string | number>>): void {
  if (rows.length === 0) return;
  const cols = Object.keys(rows[0]);
  const cells = rows.map((r) =>
    cols.map((c) => (typeof r[c] === 'number' ? fmt(r[c] as number, 1) : String(r[c] ?? ''))),
  );
  const widths = cols.map((c, i) => Math.max(c.length, ...cells.map((row) => row[i].length)));
  const line = (values: string[]) =>
    values.map((v, i) => (i === 0 ? v.padEnd(widths[i]) : v.padStart(widths[i]))).join('  ');
  console.log(line(cols));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const row of cells) console.log(line(row));
}

export interface Args {
  db: 'pglite' | 'postgres';
  /** Seconds per measurement. */
  duration: number;
  /** Seconds to wait for an idle machine before measuring (`--wait`, default 120; 0 = do not wait). */
  wait: number;
  flags: Map<string, string>;
}

/** `--db pglite|postgres`, `--duration N`, and any `--name value` / `--flag`. */
export function parseArgs(argv = process.argv.slice(2)): Args {
  const flags = new Map<string, string>();
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (!a.startsWith('--')) continue;
    const [k, inline] = a.slice(2).split('=', 2);
    const next = argv[i + 1];
    if (inline !== undefined) flags.set(k, inline);
    else if (next !== undefined && !next.startsWith('--')) {
      flags.set(k, next);
      i++;
    } else flags.set(k, 'true');
  }
  const db = flags.get('db') ?? 'pglite';
  if (db !== 'pglite' && db !== 'postgres') throw new Error(`--db must be pglite or postgres (got ${db})`);
  const duration = Number(flags.get('duration') ?? 10);
  if (!Number.isFinite(duration) || duration <= 0) throw new Error('--duration must be a number of seconds');
  const wait = Number(flags.get('wait') ?? 120);
  return { db, duration, wait: Number.isFinite(wait) ? wait : 120, flags };
}

export function isMain(url: string): boolean {
  const entry = process.argv[1];
  return !!entry && path.resolve(entry) === path.resolve(new URL(url).pathname);
}

/**
 * Runs a benchmark when its file is the process's entry (`tsx src/bench-x.ts`), not when `bench-all.ts` imports
 * it. A failure prints and exits 1; `exitCode`, when given, decides the exit once it has finished (a verdict, or
 * 0 to end a run whose sockets would keep the process alive).
 */
export function runIfMain<T>(url: string, run: () => Promise<T>, exitCode?: (result: T) => number): void {
  if (!isMain(url)) return;
  run().then(
    (result) => {
      if (exitCode) process.exit(exitCode(result));
    },
    (err) => {
      console.error(err);
      process.exit(1);
    },
  );
}
