import { spawnSync } from 'node:child_process';
import http from 'node:http';
import { loadavg } from 'node:os';
import { demoDataset, startOn } from './lib/dataset.ts';
import { agentTerminals, cannon, postTelemetry, provisionDevices, signedInAgent } from './lib/load.ts';
import { fmt, parseArgs, runIfMain, table, writeResult } from './lib/report.ts';
import { repoRoot } from './lib/server.ts';

const load = () =>
  loadavg()
    .map((n) => n.toFixed(2))
    .join(', ');

/** Event types the connections cycle through (each connection one type: its first event raises an alert). */
const EVENT_TYPES = [2, 3, 12, 14, 15];

/** A local webhook receiver: answers 200 to every POST and counts the distinct deliveries, with their times. */
async function receiver() {
  const seen = new Set<string>();
  const times: number[] = [];
  const srv = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const id = String(req.headers['x-forecourt-delivery'] ?? '');
      if (!seen.has(id)) {
        seen.add(id);
        times.push(performance.now());
      }
      res.writeHead(200).end();
    });
  });
  srv.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', resolve));
  const { port } = srv.address() as { port: number };
  return {
    url: (p: string) => `http://127.0.0.1:${port}${p}`,
    seen,
    times,
    close: () => new Promise<void>((resolve) => srv.close(() => resolve())),
  };
}

/**
 * bench:notify — on one node pinned to one core (`--server-cpu`, default 1; this process, the load and the
 * receiver, on `--load-cpu`, 0): the device ingest rate (telemetry in batches of 100, and events, one alert type per
 * connection) with no notification policy, then with `--policies` (default 20) enabled policies matching every
 * alert of the agent, each to its own webhook contact point on a local receiver (WEBHOOK_ALLOWED_HOSTS=127.0.0.1);
 * then deliveries per second: alerts raised on every terminal at once, and the time until the receiver has them all.
 */
export async function benchNotify(argv = process.argv.slice(2)) {
  const args = parseArgs(argv);
  const serverCpu = args.flags.get('server-cpu') ?? '1';
  const loadCpu = args.flags.get('load-cpu') ?? '0';
  const nTerminals = Number(args.flags.get('terminals') ?? 32);
  const nPolicies = Number(args.flags.get('policies') ?? 20);
  const commit = spawnSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: repoRoot, encoding: 'utf8' });
  spawnSync('taskset', ['-a', '-cp', loadCpu, String(process.pid)], { stdio: 'ignore' });
  const loadBefore = load();
  console.log(
    `\n== bench:notify on ${args.db} (${commit.stdout.trim() || 'no git'}): ${nTerminals} terminals, ${args.duration} s each, ${nPolicies} policies; server on CPU ${serverCpu}, load on CPU ${loadCpu}; load average before: ${loadBefore} ==`,
  );
  const target = await demoDataset(args.db, 'notify');
  const hook = await receiver();
  try {
    const server = await startOn(target, 'demo', {
      cpus: serverCpu,
      env: { WEBHOOK_ALLOWED_HOSTS: '127.0.0.1', DELIVERY_RETRY_DELAYS: '1,1,1,1,1' },
    });
    try {
      const { token, agentId } = await signedInAgent(server.url);
      const terminals = (await agentTerminals(server.url, token, agentId, nTerminals)).slice(0, nTerminals);
      const devices = await provisionDevices(
        server.url,
        token,
        terminals.map((t) => t.id),
      );
      const post = async (path: string, body: unknown) => {
        const res = await fetch(`${server.url}${path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `JWT ${token}` },
          body: JSON.stringify(body),
        });
        if (res.status !== 201) throw new Error(`POST ${path} → ${res.status} ${await res.text()}`);
        return (await res.json()) as { id: number };
      };

      const telemetry = JSON.stringify(
        Array.from({ length: 100 }, (_, i) => ({ battery_life: 40 + (i % 60), flash_left: 50 })),
      );
      const ingest = async (label: string) => {
        const t = await postTelemetry(server.url, devices, telemetry, args.duration);
        let n = 0;
        const e = await cannon({
          url: `${server.url}/api/device/v1/events`,
          method: 'POST',
          connections: devices.length,
          duration: args.duration,
          headers: { 'content-type': 'application/json' },
          setupClient: (client) => {
            const i = n++;
            client.setHeadersAndBody(
              { 'content-type': 'application/json', authorization: `Device ${devices[i % devices.length]}` },
              JSON.stringify({ event_type: EVENT_TYPES[i % EVENT_TYPES.length], text: `Bench event ${i}` }),
            );
          },
        });
        const row = {
          policies: label,
          'telemetry points/s': ((t.statuses['202'] ?? 0) * 100) / t.seconds,
          'telemetry p99 ms': t.p99,
          'events/s': (e.statuses['202'] ?? 0) / e.seconds,
          'events p99 ms': e.p99,
          errors: t.errors + e.errors,
        };
        console.log(
          `  ${label}: ${fmt(row['telemetry points/s'])} points/s, ${fmt(row['events/s'])} events/s`,
        );
        return row;
      };

      const none = await ingest('none');
      const points: number[] = [];
      for (let i = 0; i < nPolicies; i++) {
        const cp = await post('/api/contact-points/', {
          name: `Bench hook ${i + 1}`,
          kind: 'webhook',
          url: hook.url(`/hook/${i + 1}`),
        });
        points.push(cp.id);
        await post('/api/notification-policies/', {
          name: `Bench policy ${i + 1}`,
          target: { scope: { kind: 'agent', id: agentId }, tags: [] },
          contact_point_ids: [cp.id],
        });
      }
      await new Promise((r) => setTimeout(r, 1_000));
      const withPolicies = await ingest(String(nPolicies));
      // Let the deliveries of the alerts raised above go out first.
      const settle = async () => {
        let last = -1;
        while (hook.seen.size !== last) {
          last = hook.seen.size;
          await new Promise((r) => setTimeout(r, 3_000));
        }
      };
      await settle();

      // Deliveries per second: a new alert on every terminal (a type not raised yet), each to every contact point.
      const before = hook.seen.size;
      const t0 = performance.now();
      await Promise.all(
        devices.map((d) =>
          fetch(`${server.url}/api/device/v1/events`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', authorization: `Device ${d}` },
            body: JSON.stringify({ event_type: 4, text: 'Bench burst' }),
          }).then((r) => r.arrayBuffer()),
        ),
      );
      const expected = before + devices.length * nPolicies;
      const deadline = performance.now() + 300_000;
      while (hook.seen.size < expected && performance.now() < deadline)
        await new Promise((r) => setTimeout(r, 100));
      const last = hook.times.at(-1) ?? performance.now();
      const delivered = hook.seen.size - before;
      const perSecond = delivered / ((last - t0) / 1000);
      console.log(
        `  deliveries: ${fmt(delivered)} of ${fmt(devices.length * nPolicies)} in ${fmt((last - t0) / 1000, 2)} s → ${fmt(perSecond)} deliveries/s`,
      );
      console.log('');
      table([none, withPolicies]);
      const loadAfter = load();
      console.log(`\nload average before ${loadBefore}, after ${loadAfter}`);
      const figures = {
        db: args.db,
        commit: commit.stdout.trim(),
        terminals: nTerminals,
        policies: nPolicies,
        seconds: args.duration,
        ingest: [none, withPolicies],
        deliveries: {
          delivered,
          expected: devices.length * nPolicies,
          perSecond,
          seconds: (last - t0) / 1000,
        },
        loadBefore,
        loadAfter,
      };
      console.log(`results: ${writeResult(`notify-${args.db}`, figures)}`);
      if (delivered < devices.length * nPolicies) throw new Error('some deliveries never arrived');
      return figures;
    } finally {
      await server.stop();
    }
  } finally {
    await hook.close();
    await target.cleanup();
  }
}

runIfMain(import.meta.url, benchNotify);
