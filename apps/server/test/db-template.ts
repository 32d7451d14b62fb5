import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { type Database, fromPglite, fromPool } from '../src/db/client.ts';
import { ensureSeeded } from '../src/db/seed/index.ts';

export const newTemplateDumpPath = () =>
  path.join(os.tmpdir(), `forecourt-test-template-${process.pid}-${randomBytes(4).toString('hex')}.tar.gz`);
/** Template databases are named `forecourt_tpl_<pid>_<random>`: one per run, so concurrent runs never collide. */
const TEMPLATE_PREFIX = 'forecourt_tpl_';

export function adminUrl(): string {
  return process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
}

function withDb(url: string, db: string): string {
  const u = new URL(url);
  u.pathname = `/${db}`;
  return u.toString();
}

async function seedTemplate(database: Database) {
  await database.migrate();
  await ensureSeeded(database, 'demo');
}

export async function preparePgliteTemplate(file: string) {
  const client = await PGlite.create();
  await seedTemplate(fromPglite(client));
  const dump = await client.dumpDataDir('gzip');
  writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  await client.close();
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function dropDatabase(admin: pg.Client, name: string) {
  await admin.query(`drop database if exists "${name}" with (force)`);
}

export interface PostgresTemplate {
  /** Connection string of the admin database (where test databases are created from). */
  adminUrl: string;
  /** Name of this run's template database. */
  template: string;
}

/**
 * Creates this run's template database (migrated, demo-seeded) under a unique name, after dropping the
 * templates of earlier runs whose process is gone. Returns null when PostgreSQL is unreachable (the
 * postgres project then skips).
 */
export async function preparePostgresTemplate(): Promise<PostgresTemplate | null> {
  const admin = new pg.Client({ connectionString: adminUrl(), connectionTimeoutMillis: 2000 });
  try {
    await admin.connect();
  } catch {
    return null;
  }
  const template = `${TEMPLATE_PREFIX}${process.pid}_${randomBytes(4).toString('hex')}`;
  try {
    const { rows } = await admin.query<{ datname: string }>(
      `select datname from pg_database where datname like $1 or datname = 'forecourt_test_template'`,
      [`${TEMPLATE_PREFIX}%`],
    );
    for (const { datname } of rows) {
      const pid = Number(/^forecourt_tpl_(\d+)_/.exec(datname)?.[1]);
      if (!pid || !pidAlive(pid)) await dropDatabase(admin, datname).catch(() => {});
    }
    await admin.query(`create database "${template}"`);
  } finally {
    await admin.end();
  }
  const pool = new pg.Pool({ connectionString: withDb(adminUrl(), template), max: 2 });
  try {
    await seedTemplate(fromPool(pool));
  } finally {
    await pool.end();
  }
  return { adminUrl: adminUrl(), template };
}

/** Drops this run's template database. */
export async function dropPostgresTemplate(t: PostgresTemplate): Promise<void> {
  const admin = new pg.Client({ connectionString: t.adminUrl });
  await admin.connect();
  try {
    await dropDatabase(admin, t.template);
  } finally {
    await admin.end();
  }
}

/** A fresh, migrated, demo-seeded database for one test file. */
export async function openTestDatabase(kind: string, template: string): Promise<Database> {
  if (kind === 'postgres') {
    const { adminUrl: postgresAdmin, template: templateDb } = JSON.parse(template) as PostgresTemplate;
    const name = `forecourt_test_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: postgresAdmin });
    await admin.connect();
    try {
      await admin.query(`create database "${name}" template "${templateDb}"`);
    } finally {
      await admin.end();
    }
    const pool = new pg.Pool({ connectionString: withDb(postgresAdmin, name), max: 5 });
    // An idle connection ended by the server (restart, drop with force) is reported by the next query.
    pool.on('error', () => {});
    const database = fromPool(pool);
    const close = database.close;
    database.close = async () => {
      await close();
      const a = new pg.Client({ connectionString: postgresAdmin });
      await a.connect();
      await a.query(`drop database if exists "${name}" with (force)`);
      await a.end();
    };
    return database;
  }
  const blob = new Blob([readFileSync(template)]);
  const client = await PGlite.create({ loadDataDir: blob });
  return fromPglite(client);
}
