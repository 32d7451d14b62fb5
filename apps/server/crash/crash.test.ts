/**
 * The reliability suite (`npm run test:crash`, also run by `npm test`): the real server as a process, killed
 * with SIGKILL while devices write, while commands are queued and in the middle of a rollout's wave, on PGlite and on PostgreSQL; and the
 * database stopped and started under polling. See docs/deploying.md.
 */
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { PGlite } from '@electric-sql/pglite';
import { freePort } from '@forecourt/test-support/ports';
import { sleep } from '@forecourt/test-support/wait';
import pg from 'pg';
import {
  api,
  freshDatabase,
  postgresReachable,
  privateCluster,
  type ServerProcess,
  signIn,
  startServer,
  tempDir,
} from './harness.ts';

const TERMINALS = [1, 2, 3, 4];
const BATCH = 25;

type Query = <T>(sql: string, params?: unknown[]) => Promise<T[]>;

interface Engine {
  name: 'pglite' | 'postgres';
  skip: string | false;
  dataDir: string;
  databaseUrl?: string;
  /** Opens the stored data directly (the server stopped), runs `fn`, closes. */
  inspect<R>(fn: (query: Query) => Promise<R>): Promise<R>;
  cleanup(): Promise<void>;
}

async function engines(): Promise<Engine[]> {
  const lite = tempDir('pglite');
  const list: Engine[] = [
    {
      name: 'pglite',
      skip: false,
      dataDir: lite,
      async inspect(fn) {
        const client = await PGlite.create(path.join(lite, 'pglite'));
        try {
          return await fn(async (sql, params) => (await client.query(sql, params)).rows as never);
        } finally {
          await client.close();
        }
      },
      cleanup: async () => rmSync(lite, { recursive: true, force: true }),
    },
  ];
  const reachable = await postgresReachable();
  const db = reachable ? await freshDatabase() : null;
  const pgDir = tempDir('postgres');
  list.push({
    name: 'postgres',
    skip: db ? false : 'PostgreSQL is not reachable (DATABASE_URL or 127.0.0.1:5432)',
    dataDir: pgDir,
    databaseUrl: db?.url,
    async inspect(fn) {
      const c = new pg.Client({ connectionString: db!.url });
      await c.connect();
      try {
        return await fn(async (sql, params) => (await c.query(sql, params)).rows);
      } finally {
        await c.end();
      }
    },
    async cleanup() {
      await db?.drop();
      rmSync(pgDir, { recursive: true, force: true });
    },
  });
  return list;
}

const all = await engines();

for (const engine of all) {
  describe(`kill -9 on ${engine.name}`, { skip: engine.skip }, () => {
    let port: number;
    let server: ServerProcess | null = null;
    let agent: string;
    const devices = new Map<number, string>();
    const start = async () => {
      server = await startServer({ port, dataDir: engine.dataDir, databaseUrl: engine.databaseUrl });
      agent = await signIn(server.url);
      return server;
    };

    before(async () => {
      port = await freePort();
      const s = await start();
      for (const id of TERMINALS) {
        const r = await api<{ token: string }>(`${s.url}/api/terminal/${id}/device-token/`, {
          method: 'POST',
          token: agent,
        });
        assert.equal(r.status, 200, JSON.stringify(r.body));
        devices.set(id, r.body.token);
      }
    });
    after(async () => {
      await server?.stop();
      await engine.cleanup();
    });

    it('loses no acknowledged telemetry row', async () => {
      const s = server!;
      // Each point has its own `at` (one millisecond apart per terminal), so a stored row names its point.
      const base = Date.now() - 3_600_000;
      const acked = new Map<number, number[]>(TERMINALS.map((id) => [id, []]));
      let crashed = false;
      let seq = 0;
      const writer = async (id: number) => {
        while (!crashed) {
          const points = Array.from({ length: BATCH }, () => base + seq++);
          try {
            const r = await api(`${s.url}/api/device/v1/telemetry`, {
              method: 'POST',
              device: devices.get(id),
              body: points.map((at, i) => ({ at: new Date(at).toISOString(), battery_life: i % 100 })),
            });
            if (r.status === 202) acked.get(id)!.push(...points);
            else if (!crashed) throw new Error(`telemetry answered ${r.status}: ${JSON.stringify(r.body)}`);
          } catch (err) {
            if (!crashed) throw err;
          }
        }
      };
      const writing = Promise.all(TERMINALS.map((id) => writer(id)));
      // Crash in the middle of the ingest, with requests in flight.
      while ([...acked.values()].reduce((n, a) => n + a.length, 0) < 2_000) await sleep(50);
      crashed = true;
      await s.crash();
      await writing;
      const total = [...acked.values()].reduce((n, a) => n + a.length, 0);
      assert.ok(total >= 2_000);

      // The server comes back on the same data, then the stored rows are counted.
      await (await start()).stop();
      server = null;
      const missing = await engine.inspect(async (query) => {
        let lost = 0;
        for (const [id, points] of acked) {
          const rows = await query<{ ms: string }>(
            `select (extract(epoch from at) * 1000)::bigint::text as ms from telemetry
              where terminal_id = $1 and at >= $2`,
            [id, new Date(base).toISOString()],
          );
          const stored = new Set(rows.map((r) => Number(r.ms)));
          lost += points.filter((at) => !stored.has(at)).length;
        }
        return lost;
      });
      assert.equal(missing, 0, `${missing} of ${total} acknowledged points lost`);
    });

    it('hands out every queued command exactly once across crashes', async () => {
      const s = await start();
      const queued: number[] = [];
      for (const id of TERMINALS) {
        const r = await api<{ command: { id: number } }>(`${s.url}/api/terminal/${id}/reboot/`, {
          method: 'POST',
          token: agent,
          body: { reboot_type: id % 2 ? 'software' : 'full' },
        });
        assert.equal(r.status, 202, JSON.stringify(r.body));
        queued.push(r.body.command.id);
      }
      // Crash with the commands queued and none handed out.
      await s.crash();
      let current = await start();
      const handedOut: number[] = [];
      const poll = async (terminal: number) => {
        const r = await api<Array<{ id: number }>>(`${current.url}/api/device/v1/commands?wait=0`, {
          device: devices.get(terminal),
        });
        assert.equal(r.status, 200, JSON.stringify(r.body));
        handedOut.push(...r.body.map((c) => c.id));
      };
      // Half the terminals take theirs, then the server is killed again; then everyone polls twice.
      for (const id of TERMINALS.slice(0, 2)) await poll(id);
      await current.crash();
      current = await start();
      server = current;
      for (let round = 0; round < 2; round++) for (const id of TERMINALS) await poll(id);
      assert.deepEqual(
        [...handedOut].sort((a, b) => a - b),
        [...queued].sort((a, b) => a - b),
        'each queued command handed out once',
      );
    });

    it('a rollout wave cut by a crash sends each terminal one install and loses none', async () => {
      await server?.stop();
      let current = await start();
      const me = await api<{ agent: number }>(`${current.url}/api/user/`, { token: agent });
      // The package: a few bytes, its own version.
      const form = new FormData();
      form.set('name', 'crash firmware');
      form.set('version', 'crash-1.0');
      form.set('file', new Blob([Buffer.alloc(4096, 3)]), 'fw.bin');
      const up = await fetch(`${current.url}/api/software/`, {
        method: 'POST',
        headers: { authorization: `JWT ${agent}` },
        body: form,
      });
      assert.equal(up.status, 201, await up.clone().text());
      const pkg = (await up.json()) as { id: number };
      for (const id of TERMINALS) {
        const r = await api(`${current.url}/api/admin/terminals/${id}/`, {
          method: 'PATCH',
          token: agent,
          body: { tags: ['crash-rollout'] },
        });
        assert.equal(r.status, 200, JSON.stringify(r.body));
      }
      // Terminal 1 already runs it (skipped); the others form one wave.
      const v = await api(`${current.url}/api/device/v1/telemetry`, {
        method: 'POST',
        device: devices.get(1),
        body: [{ at: new Date().toISOString(), software_version: 'crash-1.0' }],
      });
      assert.equal(v.status, 202, JSON.stringify(v.body));
      for (let i = 0; i < 60; i++) {
        const t1 = await api<{ software_version: string | null }>(`${current.url}/api/admin/terminals/1/`, {
          token: agent,
        });
        if (t1.body.software_version === 'crash-1.0') break;
        await sleep(250);
      }
      const created = await api<{ id: number }>(`${current.url}/api/rollouts/`, {
        method: 'POST',
        token: agent,
        body: {
          package_id: pkg.id,
          target: { scope: { kind: 'agent', id: me.body.agent }, tags: ['crash-rollout'] },
          waves: [100],
          wave_wait_s: 600,
          max_failure_pct: 100,
        },
      });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      const rolloutId = created.body.id;

      const installs = new Map<number, number[]>(TERMINALS.map((id) => [id, []]));
      const fetchInstalls = async (terminal: number, wait: number) => {
        const r = await api<Array<{ id: number; kind: string; software_id?: number }>>(
          `${current.url}/api/device/v1/commands?wait=${wait}`,
          { device: devices.get(terminal), timeoutMs: (wait + 10) * 1000 },
        );
        assert.equal(r.status, 200, JSON.stringify(r.body));
        const mine = r.body.filter((c) => c.kind === 'install' && c.software_id === pkg.id);
        installs.get(terminal)!.push(...mine.map((c) => c.id));
        return mine;
      };
      const ack = async (id: number, result: 'ok' | 'failed') => {
        const r = await api(`${current.url}/api/device/v1/commands/${id}/ack`, {
          method: 'POST',
          device: devices.get(TERMINALS.find((t) => installs.get(t)!.includes(id))!),
          body: result === 'ok' ? { result } : { result, detail: 'checksum mismatch' },
        });
        assert.equal(r.status, 200, JSON.stringify(r.body));
      };
      const report = (terminal: number) =>
        api(`${current.url}/api/device/v1/telemetry`, {
          method: 'POST',
          device: devices.get(terminal),
          body: [{ at: new Date().toISOString(), software_version: 'crash-1.0' }],
        });

      // Terminal 2 takes its install (the leader sends the wave within a tick) and acks it; terminal 3 takes its
      // own but has not answered; terminal 4 has not fetched yet. Then the server is killed.
      const [c2] = await fetchInstalls(2, 20);
      assert.ok(c2, 'terminal 2 received its install');
      await ack(c2.id, 'ok');
      const [c3] = await fetchInstalls(3, 20);
      assert.ok(c3, 'terminal 3 received its install');
      await current.crash();
      current = await start();
      server = current;

      // After the restart everyone polls twice: only terminal 4's install is still to hand out.
      for (let round = 0; round < 2; round++) for (const id of TERMINALS) await fetchInstalls(id, 0);
      const [c4] = installs.get(4)!;
      assert.ok(c4, 'terminal 4 received its install after the restart');
      await ack(c3.id, 'failed');
      await ack(c4, 'ok');
      for (const id of [2, 4]) assert.equal((await report(id)).status, 202);

      let final: { state: string; counts: Record<string, number> } | undefined;
      for (let i = 0; i < 120 && final?.state !== 'completed'; i++) {
        await sleep(500);
        final = (await api<typeof final>(`${current.url}/api/rollouts/${rolloutId}/`, { token: agent })).body;
      }
      assert.equal(final?.state, 'completed', JSON.stringify(final));
      const rows = await api<Array<{ terminal: { id: number }; status: string }>>(
        `${current.url}/api/rollouts/${rolloutId}/terminals/`,
        { token: agent },
      );
      const status = Object.fromEntries(rows.body.map((r) => [r.terminal.id, r.status]));
      assert.deepEqual(status, { 1: 'skipped', 2: 'done', 3: 'failed', 4: 'done' });
      assert.deepEqual(
        [final!.counts.pending, final!.counts.sent, final!.counts.installing],
        [0, 0, 0],
        'nothing left in flight',
      );
      assert.equal(final!.counts.done, 2);
      assert.equal(final!.counts.failed, 1);
      assert.equal(final!.counts.skipped, 1);
      for (const id of TERMINALS)
        assert.ok(
          installs.get(id)!.length <= 1,
          `terminal ${id} received ${installs.get(id)!.length} installs`,
        );
      assert.deepEqual(
        TERMINALS.map((id) => installs.get(id)!.length),
        [0, 1, 1, 1],
      );
      // The database agrees: one install command per terminal of the rollout, whatever the devices saw.
      await current.stop();
      server = null;
      const perTerminal = await engine.inspect((query) =>
        query<{ terminal_id: number; n: number }>(
          `select terminal_id, count(*)::int as n from commands
            where kind = 'install' and (payload->>'software_id')::int = $1 group by terminal_id order by terminal_id`,
          [pkg.id],
        ),
      );
      assert.deepEqual(
        perTerminal.map((r) => [r.terminal_id, r.n]),
        [
          [2, 1],
          [3, 1],
          [4, 1],
        ],
      );
    });
  });
}

describe('the database stops and starts under polling', () => {
  let cluster: Awaited<ReturnType<typeof privateCluster>> = null;
  let server: ServerProcess | null = null;
  const dataDir = tempDir('restart');
  let skip: string | false = false;

  before(async () => {
    cluster = await privateCluster(Number(process.env.CRASH_PG_PORT ?? 0) || (await freePort()));
    if (!cluster) {
      skip = 'initdb/pg_ctl are not available';
      return;
    }
    const db = await freshDatabase(cluster.adminUrl);
    server = await startServer({ port: await freePort(), dataDir, databaseUrl: db.url });
  });
  after(async () => {
    await server?.stop();
    cluster?.destroy();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('answers 503 while it is down and 200 within 5 s of its return, in the same process', async (t) => {
    if (skip || !server || !cluster) return t.skip(skip || 'no cluster');
    const s = server;
    const token = await signIn(s.url);
    const check = async () => {
      const [ready, user] = await Promise.all([
        api(`${s.url}/api/health/ready`, { timeoutMs: 10_000 }),
        api(`${s.url}/api/user/`, { token, timeoutMs: 10_000 }),
      ]);
      return { ready, user };
    };
    const up = await check();
    assert.equal(up.ready.status, 200);
    assert.equal(up.user.status, 200);

    cluster.stop();
    // Every answer while it is down: 503 with Retry-After, within 10 s, never 500; the process lives on.
    const deadline = Date.now() + 3_000;
    let polls = 0;
    while (Date.now() < deadline) {
      const { ready, user } = await check();
      for (const r of [ready, user]) {
        assert.equal(r.status, 503, JSON.stringify(r.body));
        assert.ok(Number(r.headers.get('retry-after')) > 0);
        assert.ok(r.ms < 10_000);
      }
      polls++;
      await sleep(200);
    }
    assert.ok(polls > 0);
    const live = await api(`${s.url}/api/health`);
    assert.equal(live.status, 200);

    cluster.start();
    const back = Date.now();
    let ready = 0;
    while (Date.now() - back < 5_000) {
      const { ready: r, user } = await check();
      if (r.status === 200 && user.status === 200) {
        ready = Date.now() - back;
        break;
      }
      assert.equal(r.status === 500 || user.status === 500, false);
      await sleep(100);
    }
    assert.ok(ready > 0, 'ready and reads answer 200 within 5 s of the database starting');
    assert.equal(s.exited, false);
    const pid = await api<{ status: string }>(`${s.url}/api/health`);
    assert.equal(pid.status, 200);
  });
});

/** A webhook receiver for the suite: answers `status` (500 until told otherwise), records every delivery id. */
async function webhookReceiver() {
  const { createServer } = await import('node:http');
  const seen: Array<{ id: string; answered: number }> = [];
  let status = 500;
  const srv = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      seen.push({ id: String(req.headers['x-forecourt-delivery'] ?? ''), answered: status });
      res.writeHead(status).end();
    });
  });
  await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', resolve));
  const { port } = srv.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}/hook`,
    seen,
    answer(s: number) {
      status = s;
    },
    close: () => new Promise<void>((resolve) => srv.close(() => resolve())),
  };
}

for (const engine of await engines()) {
  describe(`notification deliveries across kill -9 on ${engine.name}`, { skip: engine.skip }, () => {
    let server: ServerProcess | null = null;
    let receiver: Awaited<ReturnType<typeof webhookReceiver>>;
    after(async () => {
      await server?.stop();
      await receiver?.close();
      await engine.cleanup();
    });

    it('delivers every pending delivery after the restart, under its delivery id', async () => {
      receiver = await webhookReceiver();
      const port = await freePort();
      const env = {
        WEBHOOK_ALLOWED_HOSTS: '127.0.0.1',
        // Retried every 2 s for three minutes: none gives up before the restart and the claims' lease (1 min).
        DELIVERY_RETRY_DELAYS: Array.from({ length: 90 }, () => '2').join(','),
      };
      const start = () =>
        startServer({ port, dataDir: engine.dataDir, databaseUrl: engine.databaseUrl, env });
      server = await start();
      let url: string = server.url;
      const agent = await signIn(url);
      const cp = await api<{ id: number }>(`${url}/api/contact-points/`, {
        method: 'POST',
        token: agent,
        body: { name: 'On call', kind: 'webhook', url: receiver.url },
      });
      assert.equal(cp.status, 201, JSON.stringify(cp.body));
      for (const id of TERMINALS) {
        const p = await api(`${url}/api/notification-policies/`, {
          method: 'POST',
          token: agent,
          body: {
            name: `Terminal ${id}`,
            target: { scope: { kind: 'terminal', id }, tags: [] },
            contact_point_ids: [cp.body.id],
          },
        });
        assert.equal(p.status, 201, JSON.stringify(p.body));
      }
      // Three alerts on each terminal, through the device API.
      for (const id of TERMINALS) {
        const token = await api<{ token: string }>(`${url}/api/terminal/${id}/device-token/`, {
          method: 'POST',
          token: agent,
        });
        assert.equal(token.status, 200, JSON.stringify(token.body));
        for (const [type, text] of [
          [14, 'Power supply failure: mains lost'],
          [15, 'Modem failure: SIM not detected'],
          [12, 'Printer error: paper jam'],
        ] as const) {
          const r = await api(`${url}/api/device/v1/events`, {
            method: 'POST',
            device: token.body.token,
            body: { event_type: type, text },
          });
          assert.equal(r.status, 202, JSON.stringify(r.body));
        }
      }
      const list = () =>
        api<Array<{ id: number; status: string; attempts: number; event: string }>>(
          `${url}/api/notification-deliveries/?contact_point_id=${cp.body.id}&limit_to=100`,
          { token: agent },
        );
      // Wait until every delivery has been refused at least once, then kill the server mid-retry.
      let before: Array<{ id: number; status: string; attempts: number }> = [];
      for (let i = 0; i < 120; i++) {
        const r = await list();
        assert.equal(r.status, 200, JSON.stringify(r.body));
        before = r.body.filter((d) => d.event === 'alert.raised');
        if (before.length === TERMINALS.length * 3 && before.every((d) => d.attempts >= 1)) break;
        await sleep(500);
      }
      assert.equal(before.length, TERMINALS.length * 3, 'one delivery per alert');
      assert.ok(
        before.every((d) => d.status === 'retrying' || d.status === 'pending'),
        JSON.stringify(before),
      );
      const ids = before.map((d) => String(d.id)).sort();
      assert.ok(receiver.seen.every((s) => s.answered === 500));
      await server.crash();
      server = null;

      // The receiver recovers; the server comes back on the same data and sends every one.
      receiver.answer(200);
      server = await start();
      url = server.url;
      const delivered = () => new Set(receiver.seen.filter((s) => s.answered === 200).map((s) => s.id));
      const deadline = Date.now() + 150_000;
      while (Date.now() < deadline && !ids.every((id) => delivered().has(id))) await sleep(500);
      const missing = ids.filter((id) => !delivered().has(id));
      assert.deepEqual(missing, [], `${missing.length} of ${ids.length} deliveries never arrived`);
      const agent2 = await signIn(url);
      const after = await api<Array<{ id: number; status: string; event: string }>>(
        `${url}/api/notification-deliveries/?contact_point_id=${cp.body.id}&limit_to=100`,
        { token: agent2 },
      );
      assert.deepEqual(
        after.body
          .filter((d) => d.event === 'alert.raised')
          .map((d) => [String(d.id), d.status])
          .sort(),
        ids.map((id) => [id, 'delivered']),
      );
    });
  });
}
