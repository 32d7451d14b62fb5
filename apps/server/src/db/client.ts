import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { isDatabaseUnavailable } from '../lib/db-unavailable.ts';
import * as schema from './schema/index.ts';

export type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;

export const migrationsFolder = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

export type QueryFn = (<T = Record<string, unknown>>(sql: string, params?: unknown[]) => Promise<T[]>) & {
  /** In a transaction: NOTIFY `channel` once it has committed (coalesced per database, outside any transaction). */
  notifyAfterCommit?: (channel: string) => void;
};

/**
 * Sends NOTIFY on a channel at most once per `ms` per database, outside any transaction: PostgreSQL commits
 * transactions that issued NOTIFY one at a time, so writers never notify themselves.
 */
function coalescedNotify(run: (sql: string, params: unknown[]) => Promise<unknown>, ms = 5) {
  const pending = new Set<string>();
  let timer: NodeJS.Timeout | undefined;
  return (channel: string) => {
    pending.add(channel);
    if (timer) return;
    timer = setTimeout(() => {
      timer = undefined;
      const channels = [...pending];
      pending.clear();
      for (const c of channels) run('select pg_notify($1, $2)', [c, '']).catch(() => {});
    }, ms);
  };
}

/** Runs `fn` with a query function that collects the channels to notify after a commit. */
function withNotifications<R>(
  query: <T>(sql: string, params?: unknown[]) => Promise<T[]>,
  fn: (q: QueryFn) => Promise<R>,
): { run: Promise<R>; channels: Set<string> } {
  const channels = new Set<string>();
  const q: QueryFn = Object.assign(query, { notifyAfterCommit: (c: string) => void channels.add(c) });
  return { run: fn(q), channels };
}

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** Run raw SQL with positional parameters; rows as plain objects. */
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
  /** Run `fn` in one transaction on one connection: committed when it resolves, rolled back when it throws. */
  transaction<R>(fn: (query: QueryFn) => Promise<R>): Promise<R>;
  /** After a write that `query` committed by itself: NOTIFY `channel` soon (coalesced, outside any transaction). */
  notifyAfterCommit?: (channel: string) => void;
  migrate(): Promise<void>;
  close(): Promise<void>;
  /**
   * PostgreSQL: from now on a query that gets no answer within `ms` fails (the request answers 503 rather than
   * hang when the database stops answering; docs/deploying.md). Set after migrations and seeding, which may run
   * long. 0 = no limit.
   */
  setQueryTimeout?(ms: number): void;
  /**
   * Calls `onNotify` for every NOTIFY on `channel` (PGlite: in-process; PostgreSQL: a dedicated connection that
   * reconnects by itself and calls `onNotify` once after each reconnection, since notifications sent meanwhile are
   * lost). Resolves to a function that stops listening.
   */
  listen(channel: string, onNotify: () => void): Promise<() => Promise<void>>;
  /**
   * Takes the session-level advisory lock `key` on a connection of its own, or resolves null when another session
   * holds it. PGlite is one process, one node: always granted.
   */
  sessionLock(key: number): Promise<SessionLock | null>;
  /**
   * Runs `fn` while holding the start-up lock: nodes started together on one empty PostgreSQL migrate and seed one
   * after the other, not at once. PGlite: runs `fn`.
   */
  exclusive<R>(fn: () => Promise<R>): Promise<R>;
}

/** Advisory lock key of start-up (migrations, seeding): "FCSTART". */
const STARTUP_LOCK = 0x46435354;

/** An advisory lock held on a connection of its own: lost when that connection dies. */
export interface SessionLock {
  /** Resolves when the lock is gone (connection lost, or released). */
  lost: Promise<void>;
  release(): Promise<void>;
}

export function fromPglite(client: PGlite): Database {
  const db = drizzlePglite(client, { schema }) as unknown as Db;
  const notify = coalescedNotify((sql, params) => client.query(sql, params));
  return {
    db,
    kind: 'pglite',
    notifyAfterCommit: notify,
    async query<T>(sql: string, params: unknown[] = []) {
      const r = await client.query<T>(sql, params);
      return r.rows;
    },
    async transaction(fn) {
      let channels = new Set<string>();
      const result = await client.transaction((tx) => {
        const t = withNotifications(
          async <T>(sql: string, params: unknown[] = []) => (await tx.query<T>(sql, params)).rows,
          fn,
        );
        channels = t.channels;
        return t.run;
      });
      for (const c of channels) notify(c);
      return result;
    },
    migrate: () => migratePglite(db as never, { migrationsFolder }),
    close: () => client.close(),
    async listen(channel, onNotify) {
      const unlisten = await client.listen(channel, () => onNotify());
      return async () => {
        await unlisten().catch(() => {});
      };
    },
    exclusive: (fn) => fn(),
    async sessionLock() {
      let release: () => void = () => {};
      const lost = new Promise<void>((resolve) => {
        release = resolve;
      });
      return { lost, release: async () => release() };
    },
  };
}

export function fromPool(pool: pg.Pool): Database {
  const db = drizzlePg(pool, { schema }) as unknown as Db;
  let queryTimeoutMs = 0;
  let closed = false;
  /** Connections of their own (listener, leader lock), ended on close. */
  const dedicated = new Set<pg.Client>();
  const notify = coalescedNotify((sql, params) => pool.query(config(sql, params)));
  const newClient = () =>
    new pg.Client({
      ...(pool.options as pg.ClientConfig),
      keepAlive: true,
      connectionTimeoutMillis: 5_000,
    });
  const config = (sql: string, params: unknown[]) =>
    ({ text: sql, values: params, query_timeout: queryTimeoutMs || undefined }) as pg.QueryConfig;
  return {
    db,
    kind: 'postgres',
    notifyAfterCommit: notify,
    setQueryTimeout(ms: number) {
      queryTimeoutMs = ms;
    },
    async query<T>(sql: string, params: unknown[] = []) {
      const r = await pool.query(config(sql, params));
      return r.rows as T[];
    },
    async transaction(fn) {
      const conn = await pool.connect();
      let failed: unknown;
      // A checked-out connection has no pool listener: a database lost mid-transaction emits 'error' on it,
      // which would end the process. The query under way rejects with it as well, so it is noted only.
      const onError = (err: Error) => {
        failed ??= err;
      };
      conn.on('error', onError);
      try {
        await conn.query(config('begin', []));
        const t = withNotifications(
          async <T>(sql: string, params: unknown[] = []) =>
            (await conn.query(config(sql, params))).rows as T[],
          fn,
        );
        const result = await t.run;
        await conn.query(config('commit', []));
        for (const c of t.channels) notify(c);
        return result;
      } catch (err) {
        await conn.query(config('rollback', [])).catch(() => {});
        failed = err;
        throw err;
      } finally {
        conn.removeListener('error', onError);
        // A connection that failed mid-transaction (lost, timed out) is dropped, not reused.
        conn.release(failed !== undefined && isDatabaseUnavailable(failed) ? (failed as Error) : undefined);
      }
    },
    migrate: () => migratePg(db as never, { migrationsFolder }),
    async close() {
      closed = true;
      await Promise.all([...dedicated].map((c) => c.end().catch(() => {})));
      await pool.end();
    },
    async listen(channel, onNotify) {
      let client: pg.Client | null = null;
      let stopped = false;
      let retry: NodeJS.Timeout | undefined;
      const connect = async (delayMs: number) => {
        if (stopped || closed) return;
        const c = newClient();
        c.on('notification', (msg) => {
          if (msg.channel === channel) onNotify();
        });
        const reconnect = () => {
          if (client !== c) return;
          client = null;
          dedicated.delete(c);
          c.end().catch(() => {});
          retry = setTimeout(() => void connect(Math.min(delayMs * 2, 5_000)), delayMs);
          retry.unref();
        };
        c.on('error', reconnect);
        c.on('end', reconnect);
        client = c;
        dedicated.add(c);
        try {
          await c.connect();
          await c.query(`listen ${pg.escapeIdentifier(channel)}`);
          // Notifications sent while this connection was away are lost: the listener reads once on its own.
          onNotify();
        } catch {
          reconnect();
        }
      };
      await connect(250);
      return async () => {
        stopped = true;
        clearTimeout(retry);
        const c = client;
        client = null;
        if (c) {
          dedicated.delete(c);
          await c.end().catch(() => {});
        }
      };
    },
    async exclusive(fn) {
      const c = newClient();
      c.on('error', () => {});
      await c.connect();
      try {
        await c.query('select pg_advisory_lock($1)', [STARTUP_LOCK]);
        return await fn();
      } finally {
        await c.query('select pg_advisory_unlock($1)', [STARTUP_LOCK]).catch(() => {});
        await c.end().catch(() => {});
      }
    },
    async sessionLock(key) {
      if (closed) return null;
      const c = newClient();
      c.on('error', () => {});
      try {
        await c.connect();
        // A node cut off from the database (not stopped) must not keep the lock for the kernel's two-hour
        // keepalive: the server ends this session after 20 s without the 5 s ping below, and probes it by TCP.
        await c
          .query(
            `select set_config('idle_session_timeout', '20s', false),
                    set_config('tcp_keepalives_idle', '10', false),
                    set_config('tcp_keepalives_interval', '5', false),
                    set_config('tcp_keepalives_count', '3', false)`,
          )
          .catch(() => {});
        const rows = await c.query<{ ok: boolean }>({
          text: 'select pg_try_advisory_lock($1) as ok',
          values: [key],
          query_timeout: 5_000,
        } as pg.QueryConfig);
        if (!rows.rows[0]?.ok) {
          await c.end().catch(() => {});
          return null;
        }
      } catch (err) {
        await c.end().catch(() => {});
        throw err;
      }
      dedicated.add(c);
      let resolveLost: () => void = () => {};
      const lost = new Promise<void>((resolve) => {
        resolveLost = resolve;
      });
      // A database that stops answering without closing the connection is noticed by a ping every 5 s.
      const ping = setInterval(() => {
        c.query({ text: 'select 1', query_timeout: 4_000 } as pg.QueryConfig).catch(() => end());
      }, 5_000);
      ping.unref();
      const end = () => {
        clearInterval(ping);
        dedicated.delete(c);
        c.end().catch(() => {});
        resolveLost();
      };
      c.on('error', end);
      c.on('end', end);
      return {
        lost,
        async release() {
          clearInterval(ping);
          await c.query('select pg_advisory_unlock($1)', [key]).catch(() => {});
          end();
        },
      };
    },
  };
}

/** PostgreSQL when a URL is given, else PGlite persisted in dataDir. */
export async function openDatabase(opts: { databaseUrl?: string; dataDir: string }): Promise<Database> {
  if (opts.databaseUrl) {
    // A database that is gone must answer within seconds, never hang a request (docs/deploying.md): a new
    // connection or a wait for a free one gives up after 5 s; TCP keepalive notices a silent peer.
    const pool = new pg.Pool({
      connectionString: opts.databaseUrl,
      max: 10,
      connectionTimeoutMillis: 5_000,
      keepAlive: true,
    });
    pool.on('error', () => {
      /* idle client errors are reported by the next query */
    });
    await pool.query('select 1');
    return fromPool(pool);
  }
  const dir = path.resolve(opts.dataDir, 'pglite');
  mkdirSync(dir, { recursive: true });
  const client = await PGlite.create(dir);
  return fromPglite(client);
}
