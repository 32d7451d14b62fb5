import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { loadavg } from 'node:os';
import path from 'node:path';
import { freePort } from '@forecourt/test-support/ports';
import { demoDataset } from './lib/dataset.ts';
import { agentTerminals, cannon, type LoadResult, provisionDevices, signedInAgent } from './lib/load.ts';
import { fmt, isMain, parseArgs, table, writeResult } from './lib/report.ts';
import { repoRoot, startServer } from './lib/server.ts';

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
    fastify: `http://127.0.0.1:${fastifyPort}/hello`,
    http: `http://127.0.0.1:${httpPort}/hello`,
    stop: () => child.kill('SIGTERM'),
  };
}

const load = () =>
  loadavg()
    .map((n) => n.toFixed(2))
    .join(', ');

/**
 * bench:writes — device writes one reading per request: many terminals, each with its own device token (provisioned
 * through the API), POST /api/device/v1/telemetry with one point each, on the server pinned to one core
 * (`--server-cpu`, default 1) while this process (the load generator) is pinned to another (`--load-cpu`, 0). In
 * the same run, a hello-world route on Fastify and on node:http pinned to the same core. Figures are per server core.
 */
export async function benchWrites(argv = process.argv.slice(2)) {
  const args = parseArgs(argv);
  const serverCpu = args.flags.get('server-cpu') ?? '1';
  const loadCpu = args.flags.get('load-cpu') ?? '0';
  const connections = Number(args.flags.get('terminals') ?? 62);
  // Every thread of this process (autocannon's sockets run on its event loop) onto the load generator's core.
  spawnSync('taskset', ['-a', '-cp', loadCpu, String(process.pid)], { stdio: 'ignore' });
  console.log(
    `\n== bench:writes on ${args.db}: ${connections} terminals, one reading per POST, ${args.duration} s; server on CPU ${serverCpu}, load on CPU ${loadCpu}; load average before: ${load()} ==`,
  );
  const target = await demoDataset(args.db, 'writes');
  const results: Array<{ name: string; r: LoadResult }> = [];
  const loadBefore = load();
  try {
    const server = await startServer({
      dataDir: target.dataDir,
      databaseUrl: target.databaseUrl,
      seed: 'demo',
      readyTimeoutMs: 600_000,
      cpus: serverCpu,
      compiled: !args.flags.has('sources'),
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
      let next = 0;
      const run = (duration: number) =>
        cannon({
          url: `${server.url}/api/device/v1/telemetry`,
          method: 'POST',
          connections: tokens.length,
          duration,
          body,
          headers: { 'content-type': 'application/json' },
          setupClient: (client) => {
            const tok = tokens[next++ % tokens.length];
            client.setHeaders({ 'content-type': 'application/json', authorization: `Device ${tok}` });
          },
        });
      await run(3);
      const writes = await run(args.duration);
      if ((writes.statuses['202'] ?? 0) === 0) throw new Error(`no 202: ${JSON.stringify(writes.statuses)}`);
      results.push({ name: 'POST /api/device/v1/telemetry (1 reading)', r: writes });
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
        results.push({
          name,
          r: await cannon({
            ...opts,
            duration: args.duration,
            headers: { 'content-type': 'application/json' },
          }),
        });
      }
    } finally {
      hello.stop();
    }
  } finally {
    await target.cleanup();
  }
  const loadAfter = load();
  const writes = results[0].r;
  table(
    results.map(({ name, r }) => ({
      route: name,
      'req/s (1 core)': r.okRps,
      'p50 ms': r.p50,
      'p99 ms': r.p99,
      errors: r.errors,
      'vs Fastify hello': r.okRps / results[1].r.okRps,
    })),
  );
  const goal = writes.okRps >= 5000 && writes.p99 < 100;
  console.log(
    `\ndevice writes on ${args.db}, one server core: ${fmt(writes.okRps)} req/s, p50 ${fmt(writes.p50)} ms, p99 ${fmt(writes.p99)} ms (goal ≥ 5,000/s with p99 < 100 ms: ${goal ? 'met' : 'not met'}); load average ${loadBefore} before, ${loadAfter} after (the machine is shared)`,
  );
  const figures = {
    db: args.db,
    seconds: args.duration,
    terminals: connections,
    serverCpu,
    loadCpu,
    loadBefore,
    loadAfter,
    results: results.map(({ name, r }) => ({
      name,
      okRps: r.okRps,
      p50: r.p50,
      p99: r.p99,
      errors: r.errors,
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
