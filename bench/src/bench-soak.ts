import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import os from 'node:os';
import { demoDataset } from './lib/dataset.ts';
import { agentDashboardPaths, authHeader, DASHBOARD_POLL_S, signedInAgent } from './lib/load.ts';
import { fmt, parseArgs, runIfMain, table, writeResult } from './lib/report.ts';
import { repoRoot, startServer } from './lib/server.ts';

/** The demo simulator's telemetry rate (readings per second per terminal), see apps/simulator/src/options.ts. */
const DEMO_RATE = 1 / 20;
/** Verdict thresholds: RSS may grow less than this share from the first window to the last ... */
const MAX_RSS_GROWTH = 0.1;
/** ... and the last window's p99 may be at most this factor of the first's (plus a few ms for tiny figures). */
const MAX_P99_FACTOR = 1.5;
const P99_SLACK_MS = 5;

interface Window {
  window: string;
  requests: number;
  errors: number;
  /** What the errors were: an HTTP status, or `timeout` / `network`. */
  errorKinds: Record<string, number>;
  /** 1-minute load average at the window's end: above ~2 on 2 cores, something else competed. */
  loadAverage: number;
  p50: number;
  p99: number;
  rssEndMb: number;
  rssMaxMb: number;
}

const percentile = (sorted: number[], q: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] : Number.NaN;

/**
 * bench:soak — the fleet simulator at ten times its demo rate plus operators polling the agent dashboard every
 * 12.5 s, for --minutes (default 30), the server pinned to one core and the load to the other (taskset).
 * Prints, per --window minutes (default 5), the operators' request count, errors, p50/p99 and the server's RSS,
 * each next to the first window (the baseline of the same run), and the verdict: RSS growth < 10 % and the
 * last window's p99 within 1.5x of the first.
 */
export async function benchSoak(argv = process.argv.slice(2)) {
  const args = parseArgs(argv);
  const minutes = Number(args.flags.get('minutes') ?? 30);
  const windowMin = Number(args.flags.get('window') ?? 5);
  const operators = Number(args.flags.get('operators') ?? 50);
  const factor = Number(args.flags.get('factor') ?? 10);
  const warmupMin = Number(args.flags.get('warmup') ?? 1);
  const port = args.flags.has('port') ? Number(args.flags.get('port')) : undefined;
  if (!(minutes > 0) || !(windowMin > 0) || windowMin > minutes)
    throw new Error('--minutes and --window must be numbers above 0, the window at most the run');
  if (!(warmupMin >= 0)) throw new Error('--warmup must be a number of minutes, 0 or more');
  const cores = os.cpus().length;
  const serverCpu = cores >= 2 ? '0' : undefined;
  const loadCpu = cores >= 2 ? '1' : undefined;
  console.log(
    `\n== bench:soak on ${args.db}: ${minutes} min in ${windowMin}-min windows, simulator at ${factor}x, ${operators} operators polling every ${DASHBOARD_POLL_S} s; server on cpu ${serverCpu ?? 'any'}, load on cpu ${loadCpu ?? 'any'} ==`,
  );
  // The load (this process: operators) on the other core; the simulator is started there too.
  if (loadCpu) spawnSync('taskset', ['-a', '-p', '-c', loadCpu, String(process.pid)], { stdio: 'ignore' });

  const target = await demoDataset(args.db, 'soak');
  const server = await startServer({
    dataDir: target.dataDir,
    databaseUrl: target.databaseUrl,
    seed: 'demo',
    readyTimeoutMs: 600_000,
    port,
    cpus: serverCpu,
    // Devices are simulated: connectivity works as in production.
    env: { CONNECTIVITY_TIMEOUT: '300' },
  });
  let simulator: ChildProcess | null = null;
  const timers: NodeJS.Timeout[] = [];
  try {
    const { token, agentId } = await signedInAgent(server.url);
    const paths = [...agentDashboardPaths(agentId), '/api/user/'];

    const simArgs = [
      '--import',
      'tsx',
      'apps/simulator/src/cli.ts',
      '--url',
      server.url,
      '--rate',
      String(DEMO_RATE * factor),
      '--batch',
      '3',
      '--report',
      String(windowMin * 60),
    ];
    const simArgv = loadCpu
      ? ['taskset', '-c', loadCpu, process.execPath, ...simArgs]
      : [process.execPath, ...simArgs];
    simulator = spawn(simArgv[0], simArgv.slice(1), { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] });
    const simLines: string[] = [];
    const onSim = (chunk: Buffer) => {
      for (const line of chunk.toString('utf8').split('\n')) {
        if (!line.trim()) continue;
        simLines.push(line);
        if (/ (warn|error) /.test(line) || /terminals · last/.test(line)) console.log(`  simulator: ${line}`);
      }
    };
    simulator.stdout?.on('data', onSim);
    simulator.stderr?.on('data', onSim);

    // Operators: each polls every endpoint every 12.5 s (staggered), with If-None-Match as the browser does.
    let latencies: number[] = [];
    let errors = 0;
    let errorKinds: Record<string, number> = {};
    const countError = (kind: string) => {
      errors++;
      errorKinds[kind] = (errorKinds[kind] ?? 0) + 1;
    };
    let rssSamples: number[] = [];
    const etags = new Map<string, string>();
    let stopped = false;
    const poll = async (p: string) => {
      const headers: Record<string, string> = authHeader(token);
      const etag = etags.get(p);
      if (etag) headers['if-none-match'] = etag;
      const t0 = performance.now();
      try {
        const res = await fetch(`${server.url}${p}`, { headers, signal: AbortSignal.timeout(10_000) });
        await res.arrayBuffer();
        if (stopped) return;
        latencies.push(performance.now() - t0);
        if (res.status === 200) {
          const e = res.headers.get('etag');
          if (e) etags.set(p, e);
        } else if (res.status !== 304) countError(String(res.status));
      } catch (err) {
        if (!stopped) countError((err as Error).name === 'TimeoutError' ? 'timeout' : 'network');
      }
    };
    for (let o = 0; o < operators; o++) {
      const offset = (o / operators) * DASHBOARD_POLL_S * 1000;
      timers.push(
        setTimeout(() => {
          const tick = () => {
            for (const p of paths) void poll(p);
          };
          tick();
          timers.push(setInterval(tick, DASHBOARD_POLL_S * 1000));
        }, offset),
      );
    }
    timers.push(setInterval(() => rssSamples.push(server.rssMb()), 5000));

    // Warm-up, not measured: the first requests pay for compiling the server's code paths and filling its
    // caches, which made the first window's p99 (the baseline) seconds instead of tens of milliseconds.
    if (warmupMin > 0) {
      console.log(`  warm-up: ${fmt(warmupMin, 1)} min, not measured`);
      await new Promise((r) => setTimeout(r, warmupMin * 60_000));
      latencies = [];
      errors = 0;
      errorKinds = {};
      rssSamples = [];
    }

    const windows: Window[] = [];
    const nWindows = Math.round(minutes / windowMin);
    for (let w = 0; w < nWindows; w++) {
      await new Promise((r) => setTimeout(r, windowMin * 60_000));
      const sorted = latencies.sort((a, b) => a - b);
      const rssEnd = server.rssMb();
      const row: Window = {
        window: `${fmt(w * windowMin, 1)}–${fmt((w + 1) * windowMin, 1)} min`,
        requests: sorted.length,
        errors,
        errorKinds,
        loadAverage: Number(os.loadavg()[0].toFixed(2)),
        p50: percentile(sorted, 0.5),
        p99: percentile(sorted, 0.99),
        rssEndMb: rssEnd,
        rssMaxMb: Math.max(rssEnd, ...rssSamples),
      };
      windows.push(row);
      const base = windows[0];
      const kinds = Object.entries(row.errorKinds)
        .map(([k, v]) => `${v} ${k}`)
        .join(', ');
      console.log(
        `  ${row.window}: ${row.requests} requests, ${row.errors} errors${kinds ? ` (${kinds})` : ''}, load ${row.loadAverage}, p50 ${fmt(row.p50, 1)} ms, p99 ${fmt(row.p99, 1)} ms (first window ${fmt(base.p99, 1)}), RSS ${fmt(rssEnd)} MB (first window ${fmt(base.rssEndMb)} MB)`,
      );
      latencies = [];
      errors = 0;
      errorKinds = {};
      rssSamples = [];
    }
    stopped = true;

    const first = windows[0];
    const last = windows[windows.length - 1];
    const growth = (last.rssEndMb - first.rssEndMb) / first.rssEndMb;
    const p99Limit = first.p99 * MAX_P99_FACTOR + P99_SLACK_MS;
    const rssOk = growth < MAX_RSS_GROWTH;
    const p99Ok = last.p99 <= p99Limit;
    const totalErrors = windows.reduce((n, w) => n + w.errors, 0);
    console.log('');
    table(
      windows.map((w) => ({
        window: w.window,
        requests: w.requests,
        errors: w.errors,
        'p50 ms': w.p50,
        'p99 ms': w.p99,
        'p99 ÷ first': w.p99 / first.p99,
        'RSS MB': w.rssEndMb,
        'RSS ÷ first': w.rssEndMb / first.rssEndMb,
        load: w.loadAverage,
      })),
    );
    const verdict = rssOk && p99Ok && totalErrors === 0;
    console.log(
      `\nRSS growth first → last window: ${fmt(growth * 100, 1)} % (limit ${MAX_RSS_GROWTH * 100} %) → ${rssOk ? 'ok' : 'NOT ok'}`,
    );
    console.log(
      `p99 last window ${fmt(last.p99, 1)} ms vs first ${fmt(first.p99, 1)} ms (limit ${fmt(p99Limit, 1)} ms) → ${p99Ok ? 'flat' : 'NOT flat'}`,
    );
    console.log(`operator errors: ${totalErrors}`);
    console.log(`verdict: ${verdict ? 'PASS' : 'FAIL'} (${args.db}, ${minutes} min)`);
    const figures = {
      db: args.db,
      minutes,
      windowMinutes: windowMin,
      operators,
      simulatorRate: DEMO_RATE * factor,
      endpoints: paths,
      windows,
      rssGrowth: growth,
      p99Limit,
      verdict: verdict ? 'pass' : 'fail',
      simulatorSummary: simLines.filter((l) => /terminals · last/.test(l)),
    };
    console.log(`results: ${writeResult(`soak-${args.db}`, figures)}`);
    return figures;
  } finally {
    for (const t of timers) clearInterval(t);
    simulator?.kill('SIGTERM');
    await server.stop();
    await target.cleanup();
  }
}

runIfMain(import.meta.url, benchSoak, (f) => (f.verdict === 'pass' ? 0 : 1));
