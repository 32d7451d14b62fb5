import type { CompanyRefSchema } from '@forecourt/contract/common';
import { SiteStatusSchema, TerminalSchema } from '@forecourt/contract/fleet';
import { createRandom, seedOf } from '@forecourt/contract/random';
import { CurrentUserSchema } from '@forecourt/contract/users';
import { z } from 'zod';
import { ApiError, ConsoleClient, DeviceClient } from './api.ts';
import type { Options } from './options.ts';
import { emptyState, type FleetState, loadState, saveState } from './state.ts';
import { emptyStats, type Stats, TerminalSim } from './terminal.ts';

export interface TerminalRef {
  id: number;
  number: string;
  siteId: number;
  connectivity: string | null;
}

export type Log = (level: 'info' | 'warn', message: string) => void;

/** Runs `fn` over `items` with at most `n` at a time. */
export async function pool<T, R>(items: T[], n: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(n, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        out[i] = await fn(items[i]);
      }
    }),
  );
  return out;
}

const SiteTerminalSchema = TerminalSchema.extend({ connectivity: z.string().nullable().optional() });

/**
 * The terminals the user reaches, through the public console API only: the current user, then the agent's (or
 * companies', or own) sites, then each site's terminals. Stops once `limit` are found.
 */
export async function discoverTerminals(c: ConsoleClient, limit: number | null): Promise<TerminalRef[]> {
  const user = await c.get('/api/user/', CurrentUserSchema);
  let sites: Array<{ id: number }>;
  if (user.agent) {
    sites = await c.get(`/api/agent/${user.agent}/sites/`, z.array(SiteStatusSchema));
  } else if (user.companies.length) {
    const lists = await pool(user.companies, 4, (co: z.infer<typeof CompanyRefSchema>) =>
      c.get(`/api/company/${co.id}/sites/`, z.array(SiteStatusSchema)),
    );
    sites = lists.flat();
  } else {
    sites = user.sites;
  }
  sites = [...new Map(sites.map((s) => [s.id, s])).values()].sort((a, b) => a.id - b.id);
  const found: TerminalRef[] = [];
  const batchSize = 8;
  for (let i = 0; i < sites.length && (limit === null || found.length < limit); i += batchSize) {
    const lists = await pool(sites.slice(i, i + batchSize), batchSize, (s) =>
      c.get(`/api/site/${s.id}/terminals/`, z.array(SiteTerminalSchema)),
    );
    for (const [k, list] of lists.entries()) {
      for (const t of list) {
        found.push({
          id: t.id,
          number: t.terminal_id,
          siteId: t.site_id ?? sites[i + k].id,
          connectivity: t.connectivity ?? null,
        });
      }
    }
  }
  return limit === null ? found : found.slice(0, limit);
}

export interface Fleet {
  terminals: TerminalSim[];
  /** Terminals discovered but left down (offline at start). */
  idle: TerminalRef[];
  /** Terminals whose device token someone else rotated: a real device holds them; never taken back. */
  released: Set<number>;
  stats: Stats;
  stop(): void;
}

/** Signs in, waiting for the server to come up (it may still be starting). */
async function signIn(c: ConsoleClient, opts: Options, log: Log, signal?: AbortSignal) {
  for (let attempt = 0; ; attempt++) {
    try {
      await c.login(opts.username, opts.password);
      return;
    } catch (err) {
      const transient =
        err instanceof ApiError && (err.status === 0 || err.status >= 500 || err.status === 429);
      if (!transient || attempt >= 30 || signal?.aborted) throw err;
      if (attempt === 0) log('info', `waiting for ${opts.url}: ${(err as Error).message}`);
      await new Promise((r) => setTimeout(r, Math.min(10_000, 500 * 2 ** attempt)));
    }
  }
}

/**
 * The device token of each terminal to run: one kept from an earlier run (state file) when the server still
 * accepts it, else a new one, provisioned as an installer would through the console API. A kept token the server
 * refuses means someone else rotated it: that terminal is released, never provisioned again. Only when every
 * kept token is refused is the server's database taken as new (reset or re-seeded) and the state started over.
 */
async function claimTokens(
  c: ConsoleClient,
  opts: Options,
  run: TerminalRef[],
  log: Log,
): Promise<FleetState> {
  let state = loadState(opts.state);
  const kept = run.filter((t) => state.tokens[t.id] && !state.released.includes(t.id));
  const refused = new Set<number>();
  await pool(kept, 8, async (t) => {
    try {
      await new DeviceClient(opts.url, state.tokens[t.id]).me();
    } catch (err) {
      if (err instanceof ApiError && err.status === 401) refused.add(t.id);
    }
  });
  if (kept.length > 1 && refused.size === kept.length) {
    log('info', 'the server knows none of the kept device tokens (a new database): provisioning afresh');
    state = emptyState();
  } else {
    for (const id of refused) {
      state.released.push(id);
      delete state.tokens[id];
    }
  }
  const released = new Set(state.released);
  await pool(
    run.filter((t) => !released.has(t.id) && !state.tokens[t.id]),
    8,
    async (t) => {
      state.tokens[t.id] = await c.deviceToken(t.id);
    },
  );
  saveState(opts.state, state);
  return state;
}

/** Discovers, provisions and starts the fleet. */
export async function startFleet(opts: Options, log: Log, signal?: AbortSignal): Promise<Fleet> {
  const c = new ConsoleClient(opts.url);
  await signIn(c, opts, log, signal);
  const found = await discoverTerminals(c, opts.terminals);
  if (!found.length) throw new Error(`user ${opts.username} reaches no terminals`);
  if (opts.terminals !== null && found.length < opts.terminals) {
    log('warn', `only ${found.length} terminals exist for ${opts.username}; simulating those`);
  }
  const run = opts.all ? found : found.filter((t) => t.connectivity !== 'off');
  const idle = opts.all ? [] : found.filter((t) => t.connectivity === 'off');

  const stats = emptyStats();
  const state = await claimTokens(c, opts, run, log);
  const released = new Set(state.released);
  const mine = run.filter((t) => !released.has(t.id));
  if (mine.length < run.length) {
    log('info', `${run.length - mine.length} terminals have a real device now; they are not simulated`);
  }
  const cutOff = (terminalId: number) => {
    released.add(terminalId);
    state.released = [...released];
    delete state.tokens[terminalId];
    try {
      saveState(opts.state, state);
    } catch (err) {
      log('warn', `could not save ${opts.state}: ${(err as Error).message}`);
    }
  };

  const terminals = mine.map(
    (t) =>
      new TerminalSim(
        t.id,
        t.number,
        t.siteId,
        new DeviceClient(opts.url, state.tokens[t.id]),
        opts.behaviour,
        createRandom(seedOf(`sim:${t.number}:${Date.now()}`)),
        { stats, cutOff, log },
      ),
  );
  let stopped = false;
  const starting = terminals.map(async (sim) => {
    for (let attempt = 0; !stopped && !sim.released; attempt++) {
      try {
        await sim.start();
        return;
      } catch (err) {
        if (sim.released) return;
        if (attempt === 0) log('warn', `terminal ${sim.number} could not start: ${(err as Error).message}`);
        await new Promise((r) => setTimeout(r, Math.min(60_000, 2_000 * 2 ** attempt)));
      }
    }
  });
  await Promise.all(starting);
  const running = terminals.filter((t) => !t.released);
  log(
    'info',
    `simulating ${running.length} terminals` +
      (idle.length ? ` (${idle.length} offline at start stay down; --all runs them)` : ''),
  );
  return {
    terminals: running,
    idle,
    released,
    stats,
    stop() {
      stopped = true;
      for (const t of terminals) t.stop();
    },
  };
}
