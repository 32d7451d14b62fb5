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

export type QueryFn = <T = Record<string, unknown>>(sql: string, params?: unknown[]) => Promise<T[]>;

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** Run raw SQL with positional parameters; rows as plain objects. */
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
  /** Run `fn` in one transaction on one connection: committed when it resolves, rolled back when it throws. */
  transaction<R>(fn: (query: QueryFn) => Promise<R>): Promise<R>;
  migrate(): Promise<void>;
  close(): Promise<void>;
  /**
   * PostgreSQL: from now on a query that gets no answer within `ms` fails (the request answers 503 rather than
   * hang when the database stops answering; docs/deploying.md). Set after migrations and seeding, which may run
   * long. 0 = no limit.
   */
  setQueryTimeout?(ms: number): void;
}

export function fromPglite(client: PGlite): Database {
  const db = drizzlePglite(client, { schema }) as unknown as Db;
  return {
    db,
    kind: 'pglite',
    async query<T>(sql: string, params: unknown[] = []) {
      const r = await client.query<T>(sql, params);
      return r.rows;
    },
    transaction: (fn) =>
      client.transaction((tx) =>
        fn(async <T>(sql: string, params: unknown[] = []) => (await tx.query<T>(sql, params)).rows),
      ),
    migrate: () => migratePglite(db as never, { migrationsFolder }),
    close: () => client.close(),
  };
}

export function fromPool(pool: pg.Pool): Database {
  const db = drizzlePg(pool, { schema }) as unknown as Db;
  let queryTimeoutMs = 0;
  const config = (sql: string, params: unknown[]) =>
    ({ text: sql, values: params, query_timeout: queryTimeoutMs || undefined }) as pg.QueryConfig;
  return {
    db,
    kind: 'postgres',
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
      try {
        await conn.query(config('begin', []));
        const result = await fn(
          async <T>(sql: string, params: unknown[] = []) =>
            (await conn.query(config(sql, params))).rows as T[],
        );
        await conn.query(config('commit', []));
        return result;
      } catch (err) {
        await conn.query(config('rollback', [])).catch(() => {});
        failed = err;
        throw err;
      } finally {
        // A connection that failed mid-transaction (lost, timed out) is dropped, not reused.
        conn.release(failed !== undefined && isDatabaseUnavailable(failed) ? (failed as Error) : undefined);
      }
    },
    migrate: () => migratePg(db as never, { migrationsFolder }),
    close: () => pool.end(),
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
