import type { CompanyRefSchema } from '@forecourt/contract/common';
import { SiteStatusSchema, TerminalSchema } from '@forecourt/contract/fleet';
import { CurrentUserSchema } from '@forecourt/contract/users';
import { z } from 'zod';
import { ApiError, ConsoleClient, DeviceClient } from './api.ts';
import type { Options } from './options.ts';
import { createRandom, seedOf } from './random.ts';
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
  const reprovisioning = new Map<number, Promise<string | null>>();
  const reprovision = (terminalId: number) => {
    let p = reprovisioning.get(terminalId);
    if (!p) {
      p = (async () => {
        try {
          return await c.deviceToken(terminalId);
        } catch (err) {
          if (err instanceof ApiError && err.status === 401) {
            await signIn(c, opts, log);
            return c.deviceToken(terminalId);
          }
          throw err;
        }
      })()
        .catch(() => null)
        .finally(() => setTimeout(() => reprovisioning.delete(terminalId), 30_000).unref());
      reprovisioning.set(terminalId, p);
    }
    return p;
  };

  // As an installer would: a device token per terminal, through the console API.
  const tokens = await pool(run, 8, (t) => c.deviceToken(t.id));
  const terminals = run.map(
    (t, i) =>
      new TerminalSim(
        t.id,
        t.number,
        t.siteId,
        new DeviceClient(opts.url, tokens[i]),
        opts.behaviour,
        createRandom(seedOf(`sim:${t.number}:${Date.now()}`)),
        { stats, reprovision, log },
      ),
  );
  let stopped = false;
  const starting = terminals.map(async (sim) => {
    for (let attempt = 0; !stopped; attempt++) {
      try {
        await sim.start();
        return;
      } catch (err) {
        if (attempt === 0) log('warn', `terminal ${sim.number} could not start: ${(err as Error).message}`);
        await new Promise((r) => setTimeout(r, Math.min(60_000, 2_000 * 2 ** attempt)));
      }
    }
  });
  await Promise.all(starting);
  log(
    'info',
    `simulating ${terminals.length} terminals` +
      (idle.length ? ` (${idle.length} offline at start stay down; --all runs them)` : ''),
  );
  return {
    terminals,
    idle,
    stats,
    stop() {
      stopped = true;
      for (const t of terminals) t.stop();
    },
  };
}
