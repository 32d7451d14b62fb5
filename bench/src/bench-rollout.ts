import { execSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { authHeader, json, signedInAgent } from './lib/load.ts';
import { freshDatabase, postgresReachable } from './lib/postgres.ts';
import { fmt, parseArgs, runIfMain, table, waitForQuiet, writeResult } from './lib/report.ts';
import { startServer } from './lib/server.ts';

const TAG = 'bench-rollout';
const VERSION = 'bench-2.0';
const tokenOf = (terminalId: number) => `bench-rollout-device-${terminalId}`;

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;

const load = () =>
  execSync('uptime')
    .toString()
    .trim()
    .replace(/^.*load average: /, '');

/** Runs `fn` over `items` with at most `n` at a time. */
async function pool<T>(items: T[], n: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(n, items.length) }, async () => {
      while (next < items.length) await fn(items[next++]!);
    }),
  );
}

interface SentLine {
  wave: number;
  sent: number;
  ms: number;
}

/**
 * bench:rollout — a software rollout over `--terminals` (default 10,000) terminals through the real server on
 * PostgreSQL (a fresh demo database per run; the terminals and their device tokens are inserted set-based, tagged
 * `bench-rollout`), next to a bulk reboot of the same terminals in the same run.
 *
 * The devices are lightweight and in this process: as soon as a terminal's install is sent (read from
 * `rollout_terminals`), it does what the simulator does, through the device API: fetch its commands (`wait=0`),
 * acknowledge the install `ok`, report the new `software_version` in its telemetry (`--concurrency` devices at a
 * time). Measured: the leader's step that decides and sends a wave (the server logs each sending step with its
 * time, commit included: p50/p95/max over the waves), install commands the step writes per second, install
 * commands the devices are handed per second, each wave's time from sent to all done; then `POST
 * /api/terminals/reboot/` over the same target (one request answering `count` reboots).
 *
 * Pin the load apart from the server: `taskset -c 0 npm run bench:rollout` (the server runs on CPU 1,
 * `--server-cpus`). `--waves` (default 1,10,50,100), `--wave-wait` seconds (default 3600: an install not fetched,
 * acknowledged or reported within it fails; once a wave's devices have all finished the bench moves the wave's
 * start back by it, so the next wave starts at the leader's next tick), `--concurrency` (default 32).
 */
export async function benchRollout(argv = process.argv.slice(2)) {
  const args = parseArgs(argv);
  const n = Number(args.flags.get('terminals') ?? 10_000);
  const waves = (args.flags.get('waves') ?? '1,10,50,100').split(',').map(Number);
  const waveWait = Number(args.flags.get('wave-wait') ?? 3600);
  const concurrency = Number(args.flags.get('concurrency') ?? 32);
  const serverCpus = args.flags.get('server-cpus') ?? '1';
  console.log(`\n== bench:rollout on postgres: ${fmt(n)} terminals, waves ${waves.join(', ')} ==`);
  if (!(await postgresReachable())) throw new Error('PostgreSQL is not reachable at 127.0.0.1:5432');
  const db = await freshDatabase('forecourt_bench_rollout');
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bench-rollout-'));
  const sentLines: SentLine[] = [];
  const settleMs: number[] = [];
  const server = await startServer({
    dataDir,
    databaseUrl: db.url,
    seed: 'demo',
    cpus: serverCpus,
    // At debug the leader also logs every other step that moved terminals (settling acks and versions).
    env: { LOG_LEVEL: 'debug', LOG_FORMAT: 'json' },
    onLine: (line) => {
      const sending = line.includes('"rollout install commands sent"');
      if (!sending && !line.includes('"msg":"rollout step"')) return;
      try {
        const o = JSON.parse(line) as SentLine & { moved?: number };
        if (sending) sentLines.push({ wave: o.wave, sent: o.sent, ms: o.ms });
        else settleMs.push(o.ms);
      } catch {
        /* not a JSON line */
      }
    },
  });
  const sql = new pg.Pool({ connectionString: db.url, max: 2 });
  try {
    const { token, agentId } = await signedInAgent(server.url);
    // The terminals, set-based: spread over the agent's sites, each with a device token (its sha-256 stored).
    const t0 = performance.now();
    const made = await sql.query<{ id: number }>(
      `with s as (
         select id, company_id, agent_id, lat, lng, row_number() over (order by id) - 1 as k, count(*) over () as c
           from sites where agent_id = $1)
       insert into terminals (site_id, company_id, agent_id, terminal_no, card_acceptor_name, lat, lng, tags,
                              software_version, connectivity)
       select s.id, s.company_id, s.agent_id, 'BR' || lpad(g::text, 7, '0'), 'Bench rollout ' || g, s.lat, s.lng,
              array['${TAG}'], 'bench-1.0', 'on'
         from generate_series(1, $2::int) g join s on s.k = g % s.c
       returning id`,
      [agentId, n],
    );
    const ids = made.rows.map((r) => r.id);
    await sql.query(
      `insert into device_tokens (terminal_id, token_hash)
       select id, encode(sha256(convert_to('bench-rollout-device-' || id, 'UTF8')), 'hex') from unnest($1::int[]) id`,
      [ids],
    );
    console.log(
      `${fmt(ids.length)} terminals and device tokens inserted in ${fmt(performance.now() - t0)} ms`,
    );

    const form = new FormData();
    form.set('name', 'Bench firmware');
    form.set('version', VERSION);
    form.set('file', new Blob([Buffer.alloc(64 * 1024, 5)]), 'bench.bin');
    const up = await fetch(`${server.url}/api/software/`, {
      method: 'POST',
      headers: authHeader(token),
      body: form,
    });
    if (up.status !== 201) throw new Error(`upload: ${up.status} ${await up.text()}`);
    const pkg = (await up.json()) as { id: number };
    const target = { scope: { kind: 'agent', id: agentId }, tags: [TAG] };

    await waitForQuiet(args.wait);
    const loadBefore = load();

    // The devices: each terminal whose install was sent fetches, acks and reports, once.
    const handled = new Set<number>();
    const fetchedAt: Array<{ wave: number; at: number }> = [];
    let failures = 0;
    const device = async (row: { terminal_id: number; wave: number }) => {
      const headers = { authorization: `Device ${tokenOf(row.terminal_id)}` };
      const got = await json<Array<{ id: number; kind: string }>>(
        `${server.url}/api/device/v1/commands?wait=0`,
        {
          headers,
        },
      );
      const install = got.status === 200 ? got.body.find((c) => c.kind === 'install') : undefined;
      if (!install) {
        failures++;
        return;
      }
      fetchedAt.push({ wave: row.wave, at: performance.now() });
      const ack = await json(`${server.url}/api/device/v1/commands/${install.id}/ack`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify({ result: 'ok' }),
      });
      const report = await json(`${server.url}/api/device/v1/telemetry`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify([{ at: new Date().toISOString(), software_version: VERSION }]),
      });
      if (ack.status !== 200 || report.status !== 202) failures++;
    };

    const created = await json<{ id: number }>(`${server.url}/api/rollouts/`, {
      method: 'POST',
      headers: { ...authHeader(token), 'content-type': 'application/json' },
      body: JSON.stringify({ package_id: pkg.id, target, waves, wave_wait_s: waveWait, max_failure_pct: 5 }),
    });
    if (created.status !== 201) throw new Error(`rollout: ${created.status} ${JSON.stringify(created.body)}`);
    const rolloutId = created.body.id;
    const started = performance.now();
    const waveDone = new Map<number, number>();
    const waveSentAt = new Map<number, number>();
    let state = 'running';
    while (state === 'running') {
      const due = await sql.query<{ terminal_id: number; wave: number }>(
        `select terminal_id, wave from rollout_terminals where rollout_id = $1 and status = 'sent' order by terminal_id`,
        [rolloutId],
      );
      const fresh = due.rows.filter((r) => !handled.has(r.terminal_id));
      for (const r of fresh) {
        handled.add(r.terminal_id);
        if (!waveSentAt.has(r.wave)) waveSentAt.set(r.wave, performance.now());
      }
      if (fresh.length) await pool(fresh, concurrency, device);
      const r = (
        await sql.query<{ state: string; wave: number; open: string }>(
          `select r.state, r.wave, (select count(*) from rollout_terminals t
                                     where t.rollout_id = r.id and t.wave = r.wave
                                       and t.status not in ('done', 'failed', 'skipped'))::text as open
             from rollouts r where r.id = $1`,
          [rolloutId],
        )
      ).rows[0]!;
      state = r.state;
      if (Number(r.open) === 0 && !waveDone.has(r.wave)) {
        waveDone.set(r.wave, performance.now());
        // The wave's devices have all finished: its wait is skipped (its start moved back by wave_wait_s), so the
        // run measures the leader and the devices, not the wait.
        await sql.query(
          `update rollouts set wave_started_at = now() - make_interval(secs => wave_wait_s) where id = $1 and wave = $2`,
          [rolloutId, r.wave],
        );
      }
      if (!fresh.length) await new Promise((res) => setTimeout(res, 100));
      if (performance.now() - started > 3_600_000)
        throw new Error(`the rollout did not finish (state ${state}, wave ${r.wave})`);
    }
    const totalS = (performance.now() - started) / 1000;
    const final = (
      await json<{ state: string; counts: Record<string, number> }>(
        `${server.url}/api/rollouts/${rolloutId}/`,
        {
          headers: authHeader(token),
        },
      )
    ).body;

    // The plain fan-out over the same terminals: one request, one reboot each.
    const r0 = performance.now();
    const reboot = await json<{ count: number; skipped?: number }>(`${server.url}/api/terminals/reboot/`, {
      method: 'POST',
      headers: { ...authHeader(token), 'content-type': 'application/json' },
      body: JSON.stringify({ target, reboot_type: 'software' }),
    });
    const rebootMs = performance.now() - r0;
    if (reboot.status !== 202) throw new Error(`reboot: ${reboot.status} ${JSON.stringify(reboot.body)}`);
    const loadAfter = load();

    const stepMs = sentLines.map((l) => l.ms).sort((a, b) => a - b);
    const rows: Array<Record<string, string | number>> = [];
    for (const [i, pct] of waves.entries()) {
      const wave = i + 1;
      const lines = sentLines.filter((l) => l.wave === wave);
      const sent = lines.reduce((s, l) => s + l.sent, 0);
      const stepTotal = lines.reduce((s, l) => s + l.ms, 0);
      const fetched = fetchedAt.filter((f) => f.wave === wave).map((f) => f.at);
      const span = fetched.length > 1 ? (Math.max(...fetched) - Math.min(...fetched)) / 1000 : Number.NaN;
      const from = waveSentAt.get(wave);
      const to = waveDone.get(wave);
      rows.push({
        wave: `${wave} (${pct} %)`,
        'installs sent': fmt(sent),
        'sending steps': String(lines.length),
        'step ms': lines.map((l) => fmt(l.ms, 1)).join(' + '),
        'written /s': fmt(stepTotal ? (sent * 1000) / stepTotal : Number.NaN),
        'handed out /s': fmt(fetched.length / span),
        'sent → all done s': from && to ? fmt((to - from) / 1000, 1) : '—',
      });
    }
    console.log('');
    table(rows);
    const fetchedAll = fetchedAt.map((f) => f.at);
    console.log(
      `\nleader step that sends a wave: p50 ${fmt(percentile(stepMs, 50), 1)} ms, p95 ${fmt(percentile(stepMs, 95), 1)} ms, max ${fmt(stepMs.at(-1) ?? Number.NaN, 1)} ms (${stepMs.length} steps)`,
    );
    const settled = [...settleMs].sort((a, b) => a - b);
    console.log(
      `leader steps that only settled acks and versions: p50 ${fmt(percentile(settled, 50), 1)} ms, p95 ${fmt(percentile(settled, 95), 1)} ms, max ${fmt(settled.at(-1) ?? Number.NaN, 1)} ms (${settled.length} steps)`,
    );
    console.log(
      `rollout: ${final.state} in ${fmt(totalS, 1)} s (the waits between waves skipped); counts ${JSON.stringify(final.counts)}; device errors ${failures}`,
    );
    console.log(
      `bulk reboot POST /api/terminals/reboot/: ${fmt(reboot.body.count)} reboots in ${fmt(rebootMs)} ms (${fmt((reboot.body.count * 1000) / rebootMs)} commands/s)`,
    );
    console.log(`load average (uptime) before: ${loadBefore}; after: ${loadAfter}`);
    const result = {
      terminals: ids.length,
      waves,
      waveWaitS: waveWait,
      concurrency,
      step: {
        p50: percentile(stepMs, 50),
        p95: percentile(stepMs, 95),
        max: stepMs.at(-1) ?? null,
        lines: sentLines,
      },
      settle: {
        p50: percentile(settled, 50),
        p95: percentile(settled, 95),
        max: settled.at(-1) ?? null,
        n: settled.length,
      },
      handedOutPerS: fetchedAll.length / ((Math.max(...fetchedAll) - Math.min(...fetchedAll)) / 1000),
      waves_: rows,
      rollout: { state: final.state, counts: final.counts, seconds: totalS, deviceErrors: failures },
      reboot: { count: reboot.body.count, ms: rebootMs },
      load: { before: loadBefore, after: loadAfter },
    };
    console.log(`\nwritten to ${writeResult('rollout-postgres', result)}`);
    return result;
  } finally {
    await sql.end();
    await server.stop();
    await db.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

runIfMain(
  import.meta.url,
  () => benchRollout(),
  () => 0,
);
