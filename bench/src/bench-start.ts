import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { freePort } from '@forecourt/test-support/ports';
import { repoRoot } from './lib/server.ts';

/**
 * npm run bench:start — the production start (`npm start`: node apps/server/dist/server.js, compiled) next to
 * the same server under the TypeScript loader (node --import tsx apps/server/src/server.ts) as the baseline.
 * Each is started twice on the embedded database: on a new DATA_DIR (first creation and seeding, done in a
 * short-lived child process) and again on the existing one. The RSS of the server process and of its whole
 * process tree (the database-creation child, the simulator) is sampled every 100 ms from spawn until --hold
 * seconds after /api/health first answers 200; the server's kernel high-water mark (VmHWM) catches a peak
 * between samples. Options: --hold N (default 10), --simulator on|off (default on, as in the demo),
 * --no-build (use the dist/ folders as they are).
 */
const { values: opts } = parseArgs({
  options: {
    hold: { type: 'string', default: '10' },
    simulator: { type: 'string', default: 'on' },
    'no-build': { type: 'boolean', default: false },
  },
});
const holdMs = Number(opts.hold) * 1000;

interface Phase {
  mode: 'compiled' | 'tsx';
  dataDir: 'new' | 'existing';
  healthMs: number;
  serverPeakMb: number;
  serverHwmMb: number;
  treePeakMb: number;
  /** Peak of the database-creation child (db/prepare), 0 when none ran. */
  prepareChildPeakMb: number;
  settledMb: number;
}

function rssKb(pid: number): number {
  try {
    const m = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) : 0;
  } catch {
    return 0;
  }
}

function hwmKb(pid: number): number {
  try {
    const m = /^VmHWM:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) : 0;
  } catch {
    return 0;
  }
}

/** The pids of root and all its descendants, with each one's command line. */
function processTree(root: number): Map<number, string> {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      const list = children.get(ppid) ?? [];
      list.push(Number(entry));
      children.set(ppid, list);
    } catch {
      /* gone meanwhile */
    }
  }
  const tree = new Map<number, string>();
  const visit = (pid: number) => {
    let cmd = '';
    try {
      cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
    } catch {
      /* gone */
    }
    tree.set(pid, cmd);
    for (const c of children.get(pid) ?? []) visit(c);
  };
  visit(root);
  return tree;
}

async function phase(mode: Phase['mode'], dataDir: string, fresh: boolean): Promise<Phase> {
  const port = await freePort();
  const entry =
    mode === 'compiled' ? ['apps/server/dist/server.js'] : ['--import', 'tsx', 'apps/server/src/server.ts'];
  const t0 = performance.now();
  const child: ChildProcess = spawn(process.execPath, entry, {
    cwd: repoRoot,
    env: {
      ...process.env,
      DATABASE_URL: '',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      SEED: 'demo',
      SIMULATOR: opts.simulator,
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (d) => {
    stderr = (stderr + String(d)).slice(-4000);
  });
  let exited = false;
  const exit = new Promise<void>((resolve) =>
    child.once('exit', () => {
      exited = true;
      resolve();
    }),
  );
  const pid = child.pid!;
  let serverPeak = 0;
  let treePeak = 0;
  let preparePeak = 0;
  const sample = () => {
    let total = 0;
    for (const [p, cmd] of processTree(pid)) {
      const kb = rssKb(p);
      total += kb;
      if (p === pid) serverPeak = Math.max(serverPeak, kb);
      else if (/prepare\.(js|ts)/.test(cmd)) preparePeak = Math.max(preparePeak, kb);
    }
    treePeak = Math.max(treePeak, total);
  };
  sample();
  const sampler = setInterval(sample, 100);
  let healthMs = 0;
  const deadline = Date.now() + 180_000;
  while (!healthMs) {
    if (exited) throw new Error(`${mode} server exited before /api/health answered:\n${stderr}`);
    if (Date.now() > deadline) throw new Error(`${mode} server not healthy within 180 s:\n${stderr}`);
    try {
      const res = await fetch(`http://127.0.0.1:${port}/api/health`, { signal: AbortSignal.timeout(1000) });
      if (res.ok) healthMs = performance.now() - t0;
    } catch {
      /* not listening yet */
    }
    if (!healthMs) await new Promise((r) => setTimeout(r, 25));
  }
  await new Promise((r) => setTimeout(r, holdMs));
  sample();
  clearInterval(sampler);
  const settled = rssKb(pid);
  const hwm = hwmKb(pid);
  child.kill('SIGTERM');
  const force = setTimeout(() => child.kill('SIGKILL'), 20_000);
  await exit;
  clearTimeout(force);
  const mb = (kb: number) => Math.round(kb / 1024);
  return {
    mode,
    dataDir: fresh ? 'new' : 'existing',
    healthMs: Math.round(healthMs),
    serverPeakMb: mb(serverPeak),
    serverHwmMb: mb(hwm),
    treePeakMb: mb(treePeak),
    prepareChildPeakMb: mb(preparePeak),
    settledMb: mb(settled),
  };
}

if (!opts['no-build']) {
  const r = spawnSync('npm', ['run', 'build', '-w', 'apps/server', '-w', 'apps/simulator'], {
    cwd: repoRoot,
    stdio: 'ignore',
  });
  if (r.status !== 0) throw new Error('npm run build -w apps/server -w apps/simulator failed');
}

const load = os.loadavg()[0]!.toFixed(1);
console.log(
  `bench:start — PGlite, simulator ${opts.simulator}, RSS sampled every 100 ms until ${opts.hold} s after health (load ${load})`,
);
const results: Phase[] = [];
for (const mode of ['compiled', 'tsx'] as const) {
  const dir = mkdtempSync(path.join(os.tmpdir(), `forecourt-bench-start-${mode}-`));
  try {
    results.push(await phase(mode, dir, true));
    results.push(await phase(mode, dir, false));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const pad = (s: string | number, n: number) => String(s).padStart(n);
console.log(
  `${'start'.padEnd(28)}${pad('health ms', 10)}${pad('server peak', 13)}${pad('server HWM', 12)}${pad('tree peak', 11)}${pad('db child', 10)}${pad('settled', 9)}  (MB)`,
);
for (const r of results) {
  const label = `${r.mode === 'compiled' ? 'npm start (compiled)' : 'tsx loader (baseline)'}, ${r.dataDir}`;
  console.log(
    `${label.padEnd(28)}${pad(r.healthMs, 10)}${pad(r.serverPeakMb, 13)}${pad(r.serverHwmMb, 12)}${pad(r.treePeakMb, 11)}${pad(r.prepareChildPeakMb || '-', 10)}${pad(r.settledMb, 9)}`,
  );
}
const compiled = results.filter((r) => r.mode === 'compiled');
const worst = Math.max(...compiled.map((r) => Math.max(r.serverPeakMb, r.serverHwmMb)));
const restart = compiled.find((r) => r.dataDir === 'existing')!;
console.log(
  `compiled server: peak RSS ${worst} MB (limit 500), restart on an existing data folder healthy in ${restart.healthMs} ms (limit 2,000)`,
);
const out = path.join(repoRoot, 'bench/results');
mkdirSync(out, { recursive: true });
writeFileSync(
  path.join(out, 'start-pglite.json'),
  JSON.stringify({ at: new Date().toISOString(), load, results }, null, 2),
);
