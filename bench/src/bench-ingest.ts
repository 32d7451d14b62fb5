import { execSync } from 'node:child_process';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { TELEMETRY_SIGNALS } from '@forecourt/contract/telemetry-history';
import pg from 'pg';
import { demoDataset, startOn } from './lib/dataset.ts';
import { agentTerminals, postTelemetry, provisionDevices, signedInAgent } from './lib/load.ts';
import { fmt, parseArgs, runIfMain, table, waitForQuiet, writeResult } from './lib/report.ts';
import { cpuSeconds } from './lib/server.ts';

const loadAverage = () =>
  execSync('uptime')
    .toString()
    .trim()
    .replace(/^.*load average: /, '');

interface Terminal {
  id: number;
  siteId: number;
}

/** A telemetry point as a terminal sends it (`at` left to the server: now). */
function point(i: number) {
  return {
    battery_life: 40 + (i % 60),
    flash_left: 20 + (i % 80),
    temperature_main_board: 38 + (i % 10) / 2,
    temperature_inside_cabinet: 21 + (i % 8) / 2,
    humidity_inside_cabinet: 45 + (i % 20),
  };
}

/** A PostgreSQL array literal of numbers or ISO timestamps, passed as one text parameter (same on PGlite and pg). */
const arr = (values: Array<number | string>) =>
  `{${values.map((v) => (typeof v === 'number' ? String(v) : `"${v}"`)).join(',')}}`;

const RAW_INSERT = `insert into telemetry (terminal_id, site_id, at, battery_life, flash_left, temperature_main_board,
                                            temperature_inside_cabinet, humidity_inside_cabinet)
  select * from unnest($1::int[], $2::int[], $3::timestamptz[], $4::float8[], $5::float8[], $6::float8[], $7::float8[], $8::float8[])`;

/** The baseline: the same points inserted straight into the telemetry table, one `insert ... select * from unnest()` per batch. */
async function rawInsert(
  query: (sql: string, params: unknown[]) => Promise<unknown>,
  terminals: Terminal[],
  batch: number,
  concurrency: number,
  seconds: number,
): Promise<{ pointsPerSecond: number; statements: number }> {
  const deadline = performance.now() + seconds * 1000;
  let statements = 0;
  const worker = async (w: number) => {
    const t = terminals[w % terminals.length];
    while (performance.now() < deadline) {
      const at = new Date().toISOString();
      const pts = Array.from({ length: batch }, (_, i) => point(i));
      await query(RAW_INSERT, [
        arr(pts.map(() => t.id)),
        arr(pts.map(() => t.siteId)),
        arr(pts.map(() => at)),
        arr(pts.map((p) => p.battery_life)),
        arr(pts.map((p) => p.flash_left)),
        arr(pts.map((p) => p.temperature_main_board)),
        arr(pts.map((p) => p.temperature_inside_cabinet)),
        arr(pts.map((p) => p.humidity_inside_cabinet)),
      ]);
      statements++;
    }
  };
  const t0 = performance.now();
  await Promise.all(Array.from({ length: concurrency }, (_, w) => worker(w)));
  return { pointsPerSecond: (statements * batch) / ((performance.now() - t0) / 1000), statements };
}

/**
 * `count` telemetry rules aiming at the whole fleet of the agent (every terminal), spread over the five signals,
 * with thresholds the benchmark's points never meet: while enabled, each reading is evaluated against every rule of
 * its signals, and none fires (the path most readings take). Created disabled; answers their ids.
 */
async function createRules(baseUrl: string, token: string, agentId: number, count: number) {
  const ids: number[] = [];
  for (let i = 0; i < count; i++) {
    const res = await fetch(`${baseUrl}/api/rules/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `JWT ${token}` },
      body: JSON.stringify({
        name: `Bench rule ${i + 1}`,
        target: { scope: { kind: 'agent', id: agentId }, tags: [] },
        signal: TELEMETRY_SIGNALS[i % TELEMETRY_SIGNALS.length],
        op: '<',
        threshold: -1 - i,
        for_s: i % 2 ? 0 : 300,
        severity: 'minor',
        enabled: false,
      }),
    });
    if (res.status !== 201) throw new Error(`POST /api/rules/ → ${res.status} ${await res.text()}`);
    ids.push(((await res.json()) as { id: number }).id);
  }
  return ids;
}

/** Enables or disables the rules, then gives the node a second to hear of it through its feed ('fleet' changes). */
async function setRules(baseUrl: string, token: string, ids: readonly number[], enabled: boolean) {
  for (const id of ids) {
    const res = await fetch(`${baseUrl}/api/rules/${id}/`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json', authorization: `JWT ${token}` },
      body: JSON.stringify({ enabled }),
    });
    if (res.status !== 200) throw new Error(`PATCH /api/rules/${id}/ → ${res.status} ${await res.text()}`);
  }
  await new Promise((r) => setTimeout(r, 1_000));
}

/**
 * bench:ingest — telemetry points per second stored durably through the device API (each connection one
 * terminal with its own device token, provisioned through the API by the agent, posting batches), and in the
 * same run the same points inserted raw with `insert ... select * from unnest()`; the ratio of the two. Then
 * (`--rules N`, default 100; 0 leaves it out) each batch size again with N enabled rules reaching every terminal and
 * once more without them, and the ratio of the run with rules to the mean of the two without (the goal is ≥ 0.8). The server is pinned to `--server-cpus`
 * (default 1); pin the load apart: `taskset -c 0 npm run bench:ingest`.
 */
export async function benchIngest(argv = process.argv.slice(2)) {
  const args = parseArgs(argv);
  const nTerminals = Number(args.flags.get('terminals') ?? 32);
  const batches = (args.flags.get('batches') ?? '1,100,1000').split(',').map(Number);
  const nRules = Number(args.flags.get('rules') ?? 100);
  const serverCpus = args.flags.get('server-cpus') ?? '1';
  const cpuProf = args.flags.get('cpu-prof');
  console.log(
    `\n== bench:ingest on ${args.db}: ${nTerminals} terminals, batches of ${batches.join(' / ')} points, ${args.duration} s each, and each without, with ${nRules} enabled rules reaching every terminal, and without again ==`,
  );
  const target = await demoDataset(args.db, 'ingest');
  try {
    const server = await startOn(target, 'demo', {
      cpus: serverCpus,
      // `--cpu-prof DIR`: the server writes a V8 CPU profile there when it stops.
      nodeArgs: cpuProf ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(cpuProf)}`] : undefined,
    });
    const terminals: Terminal[] = [];
    const api: Array<{
      batch: number;
      pointsPerSecond: number;
      /** Points per CPU second of the server process. */
      pointsPerCpuSecond: number;
      p50: number;
      p99: number;
      errors: number;
      requests: number;
    }> = [];
    const withRules: typeof api = [];
    /** Without rules again, after each run with them. */
    const apiAfter: typeof api = [];
    let acceptedPoints = 0;
    let apiStart = new Date();
    let loadBefore = '';
    try {
      const { token, agentId } = await signedInAgent(server.url);
      terminals.push(...(await agentTerminals(server.url, token, agentId, nTerminals)));
      const used = terminals.slice(0, nTerminals);
      const deviceTokens = await provisionDevices(
        server.url,
        token,
        used.map((t) => t.id),
      );

      await waitForQuiet(args.wait);
      loadBefore = loadAverage();
      apiStart = new Date();
      const measure = async (batch: number, label: string) => {
        const body = JSON.stringify(
          batch === 1 ? point(0) : Array.from({ length: batch }, (_, i) => point(i)),
        );
        const run = (duration: number) => postTelemetry(server.url, deviceTokens, body, duration);
        const warm = await run(2);
        const cpu0 = cpuSeconds(server.pid);
        const r = await run(args.duration);
        // The server's CPU seconds (PGlite runs inside it): the work per point, which a loaded machine distorts less
        // than the rate.
        const cpu = cpuSeconds(server.pid) - cpu0;
        const accepted = r.statuses['202'] ?? 0;
        acceptedPoints += (accepted + (warm.statuses['202'] ?? 0)) * batch;
        console.log(
          `  API batch ${batch}${label}: ${fmt((accepted * batch) / r.seconds)} points/s (${fmt(accepted / r.seconds)} req/s, p99 ${fmt(r.p99)} ms, ${r.errors} errors, ${fmt((accepted * batch) / cpu)} points per server CPU s)`,
        );
        return {
          batch,
          pointsPerSecond: (accepted * batch) / r.seconds,
          pointsPerCpuSecond: (accepted * batch) / cpu,
          p50: r.p50,
          p99: r.p99,
          errors: r.errors,
          requests: r.total,
        };
      };
      // With rules, each batch size is measured without, with, and without again (the rules disabled): the
      // reference is the mean of the two runs around the one with rules, so what the database gains as it fills
      // (and the machine's drift) weighs on both sides alike.
      const ruleIds = nRules > 0 ? await createRules(server.url, token, agentId, nRules) : [];
      for (const batch of batches) {
        api.push(await measure(batch, ''));
        if (!ruleIds.length) continue;
        await setRules(server.url, token, ruleIds, true);
        withRules.push(await measure(batch, ` with ${nRules} rules`));
        await setRules(server.url, token, ruleIds, false);
        apiAfter.push(await measure(batch, ' without rules again'));
      }
    } finally {
      await server.stop();
    }

    // Same run, server stopped (PGlite has one owner): the raw baseline on the same database.
    let query: (sql: string, params: unknown[]) => Promise<unknown>;
    let close: () => Promise<void>;
    if (target.databaseUrl) {
      const pool = new pg.Pool({ connectionString: target.databaseUrl, max: nTerminals });
      query = (sql, params) => pool.query(sql, params);
      close = () => pool.end();
    } else {
      const client = await PGlite.create(path.join(target.dataDir, 'pglite'));
      query = (sql, params) => client.query(sql, params);
      close = () => client.close();
    }
    const raw: Array<{ batch: number; pointsPerSecond: number }> = [];
    let storedCheck = 0;
    try {
      const rows = (await query('select count(*)::bigint as n from telemetry where at >= $1', [
        apiStart.toISOString(),
      ])) as { rows: Array<{ n: string }> } | Array<{ n: string }>;
      storedCheck = Number((Array.isArray(rows) ? rows : rows.rows)[0].n);
      for (const batch of batches) {
        await rawInsert(query, terminals, batch, Math.min(nTerminals, 16), 1);
        const r = await rawInsert(query, terminals, batch, Math.min(nTerminals, 16), args.duration);
        raw.push({ batch, pointsPerSecond: r.pointsPerSecond });
        console.log(`  raw unnest() batch ${batch}: ${fmt(r.pointsPerSecond)} points/s`);
      }
    } finally {
      await close();
    }

    const rowsOut = api.map((a) => {
      const r = raw.find((x) => x.batch === a.batch)!;
      const ruled = withRules.find((x) => x.batch === a.batch);
      return {
        'batch (points)': a.batch,
        'API points/s': a.pointsPerSecond,
        'API p99 ms': a.p99,
        errors: a.errors,
        'raw points/s': r.pointsPerSecond,
        'API ÷ raw': a.pointsPerSecond / r.pointsPerSecond,
        ...(ruled
          ? {
              [`${nRules} rules points/s`]: ruled.pointsPerSecond,
              [`${nRules} rules p99 ms`]: ruled.p99,
              'rules ÷ none (mean of before and after)':
                ruled.pointsPerSecond / ((a.pointsPerSecond + apiAfter[api.indexOf(a)].pointsPerSecond) / 2),
            }
          : {}),
      };
    });
    console.log('');
    table(rowsOut);
    const best = api.reduce((b, a) => (a.pointsPerSecond > b.pointsPerSecond ? a : b));
    console.log(
      `\nbest through the device API on ${args.db}: ${fmt(best.pointsPerSecond)} points/s (batches of ${best.batch}), ${fmt(best.pointsPerSecond / raw.find((r) => r.batch === best.batch)!.pointsPerSecond, 3)} of raw unnest(); rows stored: ${fmt(storedCheck)} ≥ ${fmt(acceptedPoints)} points answered 202 (the rest were in flight when a measurement ended)`,
    );
    if (withRules.length) {
      console.log(
        `\nrules: the device API with ${nRules} enabled rules reaching every terminal, to the mean of the runs without them just before and just after`,
      );
      table(
        api.map((a, i) => {
          const ruled = withRules[i];
          const after = apiAfter[i];
          const ref = (a.pointsPerSecond + after.pointsPerSecond) / 2;
          const refCpu = (a.pointsPerCpuSecond + after.pointsPerCpuSecond) / 2;
          const ratio = ruled.pointsPerSecond / ref;
          return {
            'batch (points)': a.batch,
            '0 rules points/s (before / after)': `${fmt(a.pointsPerSecond)} / ${fmt(after.pointsPerSecond)}`,
            [`${nRules} rules points/s`]: ruled.pointsPerSecond,
            'ratio to the mean': fmt(ratio, 3),
            'goal ≥ 0.8': ratio >= 0.8 ? 'met' : 'NOT met',
            '0 rules points/CPU s (mean)': refCpu,
            [`${nRules} rules points/CPU s`]: ruled.pointsPerCpuSecond,
            'ratio per CPU s': fmt(ruled.pointsPerCpuSecond / refCpu, 3),
          };
        }),
      );
    }
    const loadAfter = loadAverage();
    console.log(`load average (uptime) before: ${loadBefore}; after: ${loadAfter}`);
    if (storedCheck < acceptedPoints)
      throw new Error(`${storedCheck} rows stored for ${acceptedPoints} accepted points`);
    const figures = {
      db: args.db,
      terminals: nTerminals,
      seconds: args.duration,
      api,
      rules: nRules,
      withRules,
      apiAfter,
      raw,
      best,
      acceptedPoints,
      storedCheck,
      load: { before: loadBefore, after: loadAfter },
    };
    console.log(`results: ${writeResult(`ingest-${args.db}`, figures)}`);
    return figures;
  } finally {
    await target.cleanup();
  }
}

runIfMain(import.meta.url, benchIngest);
