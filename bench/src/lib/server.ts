import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '@forecourt/test-support/ports';
import { stopChild, waitForHealth } from '@forecourt/test-support/server-process';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

export interface ServerOptions {
  /** PGlite data directory (used for the JWT secret on PostgreSQL too). */
  dataDir: string;
  databaseUrl?: string;
  seed?: 'demo' | 'large' | 'none';
  env?: Record<string, string>;
  /** How long to wait for /api/health (first start of a large seed takes minutes). */
  readyTimeoutMs?: number;
  /** Print the server's seed progress lines. */
  echoSeed?: boolean;
  /** Listen on this port (default: a free one). */
  port?: number;
  /** Pin the server to these CPUs with `taskset -c` (e.g. "0"). */
  cpus?: string;
  /** Extra Node.js flags of the server process (e.g. `--cpu-prof`, which NODE_OPTIONS does not take). */
  nodeArgs?: string[];
  /** Run the compiled server (`apps/server/dist/server.js`, what `npm start` runs) instead of the sources. */
  compiled?: boolean;
  /** Called with every line the server prints (its log). */
  onLine?: (line: string) => void;
}

/**
 * CPU seconds a process has used (user + system, from /proc): the measure of one core's work that a shared
 * machine does not distort as much as wall-clock throughput does.
 */
export function cpuSeconds(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    // Fields 14 and 15 of stat (utime, stime), counted after the command name: indexes 11 and 12 here.
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return Number.NaN;
  }
}

export interface ServerHandle {
  url: string;
  pid: number;
  /** Milliseconds from spawn to the first 200 from /api/health. */
  startMs: number;
  /** Resident set size now, in MB. */
  rssMb(): number;
  /** Peak resident set size so far, in MB. */
  peakRssMb(): number;
  stop(): Promise<void>;
}

function statusKb(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  try {
    const m = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) : 0;
  } catch {
    return 0;
  }
}

/**
 * Starts the real server as a child process (`node --import tsx apps/server/src/server.ts`, or the compiled
 * `apps/server/dist/server.js` with `compiled`) on a free loopback
 * port, simulator off, connectivity watchdog effectively idle, and waits for /api/health.
 */
export async function startServer(opts: ServerOptions): Promise<ServerHandle> {
  const port = opts.port ?? (await freePort());
  const env: Record<string, string> = {
    ...(process.env as Record<string, string>),
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: opts.dataDir,
    SIMULATOR: 'off',
    SEED: opts.seed ?? 'demo',
    LOG_LEVEL: 'warn',
    // A benchmark run has no devices; without this every seeded terminal would go offline mid-run.
    CONNECTIVITY_TIMEOUT: '1000h',
    ...(opts.env ?? {}),
  };
  delete env.DATABASE_URL;
  if (opts.databaseUrl) env.DATABASE_URL = opts.databaseUrl;
  const t0 = performance.now();
  const node = [process.execPath, ...(opts.nodeArgs ?? [])];
  const argv = opts.compiled
    ? [...node, 'apps/server/dist/server.js']
    : [...node, '--import', 'tsx', 'apps/server/src/server.ts'];
  // taskset execs the server in place: the child's pid is the server's.
  if (opts.cpus) argv.unshift('taskset', '-c', opts.cpus);
  const child: ChildProcess = spawn(argv[0], argv.slice(1), {
    cwd: repoRoot,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  const keep = (chunk: Buffer) => {
    for (const line of chunk.toString('utf8').split('\n')) {
      if (!line.trim()) continue;
      opts.onLine?.(line);
      if (opts.echoSeed && line.includes('[seed:')) console.log(`  ${line.trim()}`);
      output.push(line);
      if (output.length > 200) output.shift();
    }
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const url = `http://127.0.0.1:${port}`;
  await waitForHealth(url, child, {
    timeoutMs: opts.readyTimeoutMs ?? 120_000,
    intervalMs: 25,
    output: () => output.join('\n'),
  });
  const startMs = performance.now() - t0;
  const pid = child.pid!;
  return {
    url,
    pid,
    startMs,
    rssMb: () => statusKb(pid, 'VmRSS') / 1024,
    peakRssMb: () => statusKb(pid, 'VmHWM') / 1024,
    stop: () => stopChild(child),
  };
}
