import { AdminTerminalSchema } from '@forecourt/contract/admin';
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

/** The newest terminal id the agent administers (0: none), or null when the user administers nothing. */
async function newestTerminalId(c: ConsoleClient): Promise<number | null> {
  try {
    const [newest] = await c.get('/api/admin/terminals/?limit_to=1', z.array(AdminTerminalSchema));
    return newest?.id ?? 0;
  } catch (err) {
    if (err instanceof ApiError && (err.status === 403 || err.status === 404)) return null;
    throw err;
  }
}

/**
 * Terminals created after `afterId` (newest first, paged with `before`), as an administrator lists them. Only those
 * nobody has provisioned a device token for are answered: a terminal with a token has a real device.
 */
export async function newTerminals(
  c: ConsoleClient,
  afterId: number,
): Promise<{ adopt: TerminalRef[]; newest: number }> {
  const adopt: TerminalRef[] = [];
  let newest = afterId;
  let before = '';
  for (;;) {
    const page = await c.get(
      `/api/admin/terminals/?limit_to=200${before ? `&before=${before}` : ''}`,
      z.array(AdminTerminalSchema),
    );
    const fresh = page.filter((t) => t.id > afterId);
    for (const t of fresh) {
      newest = Math.max(newest, t.id);
      if (!t.has_device_token)
        adopt.push({ id: t.id, number: t.terminal_id, siteId: t.site_id, connectivity: null });
    }
    if (page.length < 200 || fresh.length < page.length) break;
    before = String(page[page.length - 1].id);
  }
  return { adopt: adopt.reverse(), newest };
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
  // Terminals created after this one are picked up while the fleet runs (see opts.rediscoverS).
  let newest = opts.rediscoverS > 0 ? await newestTerminalId(c) : null;
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

  const simOf = (t: TerminalRef) =>
    new TerminalSim(
      t.id,
      t.number,
      t.siteId,
      new DeviceClient(opts.url, state.tokens[t.id]),
      opts.behaviour,
      createRandom(seedOf(`sim:${t.number}:${Date.now()}`)),
      { stats, cutOff, log },
    );
  const terminals = mine.map(simOf);
  let stopped = false;
  const startSim = async (sim: TerminalSim) => {
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
  };
  await Promise.all(terminals.map(startSim));
  const running = terminals.filter((t) => !t.released);
  log(
    'info',
    `simulating ${running.length} terminals` +
      (idle.length ? ` (${idle.length} offline at start stay down; --all runs them)` : ''),
  );
  const fleet: Fleet = {
    terminals: running,
    idle,
    released,
    stats,
    stop() {
      stopped = true;
      if (rediscovery) clearTimeout(rediscovery);
      for (const t of terminals) t.stop();
    },
  };

  /**
   * Follows the fleet: adopts terminals created since the last look (provisioning their token as an installer
   * would), and drops the ones that were let go (decommissioned or taken over by a real device: their token gets
   * 401 and the terminal releases itself).
   */
  let rediscovery: ReturnType<typeof setTimeout> | null = null;
  const rediscover = async () => {
    if (newest === null) return;
    const { adopt, newest: latest } = await newTerminals(c, newest);
    newest = latest;
    const fresh = adopt.filter((t) => !released.has(t.id));
    for (const t of fresh) {
      if (stopped) return;
      try {
        state.tokens[t.id] = await c.deviceToken(t.id);
      } catch (err) {
        log('warn', `terminal ${t.number} could not be provisioned: ${(err as Error).message}`);
        continue;
      }
      const sim = simOf(t);
      terminals.push(sim);
      fleet.terminals.push(sim);
      void startSim(sim);
      log('info', `terminal ${t.number} was created: simulating it`);
    }
    if (fresh.length) saveState(opts.state, state);
  };
  const schedule = () => {
    if (stopped || newest === null || opts.rediscoverS <= 0) return;
    rediscovery = setTimeout(() => {
      rediscover()
        .catch(async (err) => {
          // A lapsed sign-in (the session expired, or the server restarted with a new secret): sign in again.
          if (err instanceof ApiError && err.status === 401)
            await c.login(opts.username, opts.password).catch(() => {});
          else log('warn', `looking for new terminals failed: ${(err as Error).message}`);
        })
        .finally(() => {
          for (let i = fleet.terminals.length - 1; i >= 0; i--)
            if (fleet.terminals[i].released) fleet.terminals.splice(i, 1);
          schedule();
        });
    }, opts.rediscoverS * 1000);
    rediscovery.unref?.();
  };
  schedule();
  return fleet;
}
