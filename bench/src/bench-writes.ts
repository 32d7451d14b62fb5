import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { loadavg } from 'node:os';
import path from 'node:path';
import { freePort } from '@forecourt/test-support/ports';
import pg from 'pg';
import { demoDataset, startOn } from './lib/dataset.ts';
import {
  agentTerminals,
  cannon,
  type LoadResult,
  postTelemetry,
  provisionDevices,
  signedInAgent,
} from './lib/load.ts';
import { fmt, isMain, parseArgs, table, writeResult } from './lib/report.ts';
import { cpuSeconds, repoRoot } from './lib/server.ts';

/** A hello-world route on Fastify and on bare node:http, pinned like the server: the ceiling of one core. */
const HELLO = `
import http from 'node:http';
import Fastify from 'fastify';
const [fastifyPort, httpPort] = process.argv.slice(-2).map(Number);
const app = Fastify();
app.post('/hello', async (_req, reply) => reply.status(202).send({ accepted: 1 }));
await app.listen({ port: fastifyPort, host: '127.0.0.1' });
http.createServer((req, res) => {
  req.resume();
  req.on('end', () => { res.writeHead(202, { 'content-type': 'application/json' }); res.end('{"accepted":1}'); });
}).listen(httpPort, '127.0.0.1', () => console.log('ready'));
`;

async function startHello(cpus: string) {
  const [fastifyPort, httpPort] = [await freePort(), await freePort()];
  const child: ChildProcess = spawn(
    'taskset',
    ['-c', cpus, process.execPath, '--input-type=module', '-e', HELLO, String(fastifyPort), String(httpPort)],
    { cwd: path.join(repoRoot, 'apps/server'), stdio: ['ignore', 'pipe', 'inherit'] },
  );
  await new Promise<void>((resolve, reject) => {
    child.stdout?.on('data', (d) => String(d).includes('ready') && resolve());
    child.once('exit', (code) => reject(new Error(`hello-world server exited ${code}`)));
  });
  return {
    pid: child.pid!,
    fastify: `http://127.0.0.1:${fastifyPort}/hello`,
    http: `http://127.0.0.1:${httpPort}/hello`,
    stop: () => child.kill('SIGTERM'),
  };
}

/** Runs `measure` and answers its result with the CPU seconds `pid` used meanwhile. */
async function withCpu<T>(pid: number, measure: () => Promise<T>): Promise<{ r: T; cpu: number }> {
  const before = cpuSeconds(pid);
  const r = await measure();
  return { r, cpu: cpuSeconds(pid) - before };
}

/** PostgreSQL: telemetry change rows and the transactions that wrote them (how many writes a commit carried). */
async function commitsOf(databaseUrl: string): Promise<{ writes: number; commits: number }> {
  const c = new pg.Client({ connectionString: databaseUrl });
  await c.connect();
  try {
    const r = await c.query<{ writes: string; commits: string }>(
      `select count(*) as writes, count(distinct xid) as commits from changes where kind = 'telemetry'`,
    );
    return { writes: Number(r.rows[0].writes), commits: Number(r.rows[0].commits) };
  } finally {
    await c.end();
  }
}

const load = () =>
  loadavg()
    .map((n) => n.toFixed(2))
    .join(', ');

/**
 * bench:writes — device writes one reading per request: many terminals, each with its own device token (provisioned
 * through the API), POST /api/device/v1/telemetry with one point each, on the server pinned to one core
 * (`--server-cpu`, default 1) while this process (the load generator) is pinned to another (`--load-cpu`, 0). In
 * the same run, a hello-world route on Fastify and on node:http pinned to the same core. Figures are per server core,
 * with the CPU seconds each server used (a loaded machine lowers the throughput more than the work per request).
 */
export async function benchWrites(argv = process.argv.slice(2)) {
  const args = parseArgs(argv);
  const serverCpu = args.flags.get('server-cpu') ?? '1';
  const loadCpu = args.flags.get('load-cpu') ?? '0';
  const connections = Number(args.flags.get('terminals') ?? 62);
  const compiled = !args.flags.has('sources');
  // The compiled server is what is measured: built from these sources first, unless told not to.
  if (compiled && !args.flags.has('no-build')) {
    const r = spawnSync('npm', ['run', 'build', '-w', 'apps/server'], { cwd: repoRoot, stdio: 'ignore' });
    if (r.status !== 0) throw new Error('npm run build -w apps/server failed');
  }
  const commit = spawnSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: repoRoot, encoding: 'utf8' });
  // Every thread of this process (autocannon's sockets run on its event loop) onto the load generator's core.
  spawnSync('taskset', ['-a', '-cp', loadCpu, String(process.pid)], { stdio: 'ignore' });
  console.log(
    `\n== bench:writes on ${args.db} (${commit.stdout.trim() || 'no git'}): ${connections} terminals, one reading per POST, ${args.duration} s; server on CPU ${serverCpu}, load on CPU ${loadCpu}; load average before: ${load()} ==`,
  );
  const target = await demoDataset(args.db, 'writes');
  const results: Array<{ name: string; r: LoadResult; cpu: number }> = [];
  const loadBefore = load();
  let perCommit: { writes: number; commits: number } | null = null;
  try {
    const server = await startOn(target, 'demo', {
      cpus: serverCpu,
      compiled,
      // --cpu-prof DIR: the server writes a V8 CPU profile there when it stops (where the time of a write goes).
      nodeArgs: args.flags.has('cpu-prof')
        ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(args.flags.get('cpu-prof') ?? '.')}`]
        : [],
    });
    try {
      const { token, agentId } = await signedInAgent(server.url);
      const terminals = await agentTerminals(server.url, token, agentId, connections);
      const tokens = await provisionDevices(
        server.url,
        token,
        terminals.slice(0, connections).map((t) => t.id),
      );
      const body = JSON.stringify({
        battery_life: 81,
        flash_left: 64,
        temperature_main_board: 41.5,
        temperature_inside_cabinet: 23,
        humidity_inside_cabinet: 51,
      });
      const run = (duration: number) => postTelemetry(server.url, tokens, body, duration);
      await run(3);
      const before = target.databaseUrl ? await commitsOf(target.databaseUrl) : null;
      const writes = await withCpu(server.pid, () => run(args.duration));
      if ((writes.r.statuses['202'] ?? 0) === 0)
        throw new Error(`no 202: ${JSON.stringify(writes.r.statuses)}`);
      if (target.databaseUrl && before) {
        const after = await commitsOf(target.databaseUrl);
        perCommit = { writes: after.writes - before.writes, commits: after.commits - before.commits };
      }
      results.push({ name: 'POST /api/device/v1/telemetry (1 reading)', ...writes });
    } finally {
      await server.stop();
    }
    const hello = await startHello(serverCpu);
    try {
      for (const [name, url] of [
        ['hello world, Fastify (POST, same core)', hello.fastify],
        ['hello world, node:http (POST, same core)', hello.http],
      ] as const) {
        const opts = { url, method: 'POST' as const, connections, body: '{"battery_life":81}' };
        await cannon({ ...opts, duration: 2, headers: { 'content-type': 'application/json' } });
        const measured = await withCpu(hello.pid, () =>
          cannon({ ...opts, duration: args.duration, headers: { 'content-type': 'application/json' } }),
        );
        results.push({ name, ...measured });
      }
    } finally {
      hello.stop();
    }
  } finally {
    await target.cleanup();
  }
  const loadAfter = load();
  const writes = results[0].r;
  const helloFastify = results[1].r;
  /** Requests per CPU second of the server process: what one core would do if it ran only this server. */
  const perCpu = (r: LoadResult, cpu: number) => (cpu > 0 ? r.ok / cpu : Number.NaN);
  table(
    results.map(({ name, r, cpu }) => ({
      route: name,
      'req/s (1 core)': r.okRps,
      'p50 ms': r.p50,
      'p99 ms': r.p99,
      errors: r.errors,
      'server CPU s': cpu,
      'req per CPU s': perCpu(r, cpu),
      'vs Fastify hello': r.okRps / helloFastify.okRps,
    })),
  );
  const goal = writes.okRps >= 5000 && writes.p99 < 100;
  console.log(
    `\ndevice writes on ${args.db}, one server core: ${fmt(writes.okRps)} req/s, p50 ${fmt(writes.p50)} ms, p99 ${fmt(writes.p99)} ms (goal ≥ 5,000/s with p99 < 100 ms: ${goal ? 'met' : 'not met'}); ${fmt(perCpu(writes, results[0].cpu))} per server CPU second` +
      `\nhello world on the same core, same run: Fastify ${fmt(helloFastify.okRps)} req/s (p99 ${fmt(helloFastify.p99)} ms), node:http ${fmt(results[2].r.okRps)} req/s (p99 ${fmt(results[2].r.p99)} ms)` +
      (perCommit && perCommit.commits > 0
        ? `\n${fmt(perCommit.writes)} writes in ${fmt(perCommit.commits)} transactions: ${fmt(perCommit.writes / perCommit.commits, 1)} writes per commit`
        : '') +
      `\nload average ${loadBefore} before, ${loadAfter} after (the machine is shared when above ~1)`,
  );
  const figures = {
    db: args.db,
    commit: commit.stdout.trim(),
    seconds: args.duration,
    terminals: connections,
    serverCpu,
    loadCpu,
    loadBefore,
    loadAfter,
    writesPerCommit: perCommit && perCommit.commits > 0 ? perCommit.writes / perCommit.commits : null,
    results: results.map(({ name, r, cpu }) => ({
      name,
      okRps: r.okRps,
      p50: r.p50,
      p99: r.p99,
      errors: r.errors,
      serverCpuSeconds: cpu,
      perCpuSecond: perCpu(r, cpu),
    })),
  };
  console.log(`results: ${writeResult(`writes-${args.db}`, figures)}`);
  return figures;
}

if (isMain(import.meta.url)) {
  benchWrites().catch((err) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  });
}
