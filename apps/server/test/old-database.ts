import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { afterAll, beforeAll, inject } from 'vitest';
import { type Database, fromPglite, fromPool, migrationsFolder } from '../src/db/client.ts';
import type { PostgresTemplate } from './db-template.ts';
import { openDemoDatabase, testDbKind } from './helper.ts';

/** The migrations up to and including `tag`, in a folder of their own. */
function migrationsUpTo(tag: string): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'forecourt-migrations-'));
  cpSync(migrationsFolder, dir, { recursive: true });
  const journalFile = path.join(dir, 'meta', '_journal.json');
  const journal = JSON.parse(readFileSync(journalFile, 'utf8')) as { entries: { tag: string }[] };
  const last = journal.entries.findIndex((e) => e.tag === tag);
  if (last < 0) throw new Error(`no migration ${tag}`);
  journal.entries = journal.entries.slice(0, last + 1);
  writeFileSync(journalFile, JSON.stringify(journal));
  return dir;
}

/**
 * A new database of the test's engine migrated only up to `tag`: the shape an older release left, for testing a
 * later migration on it. `drop` closes it and removes it with its migrations folder.
 */
export async function databaseUpTo(tag: string): Promise<{ db: Database; drop: () => Promise<void> }> {
  const folder = migrationsUpTo(tag);
  const removeFolder = () => rmSync(folder, { recursive: true, force: true });
  if (testDbKind === 'postgres') {
    const t = JSON.parse(inject('postgresTemplate')) as PostgresTemplate;
    const name = `forecourt_test_mig_${process.pid}_${Date.now()}`;
    const admin = async (sql: string) => {
      const c = new pg.Client({ connectionString: t.adminUrl });
      await c.connect();
      try {
        await c.query(sql);
      } finally {
        await c.end();
      }
    };
    await admin(`create database "${name}"`);
    const u = new URL(t.adminUrl);
    u.pathname = `/${name}`;
    const pool = new pg.Pool({ connectionString: u.toString(), max: 2 });
    await migratePg(drizzlePg(pool), { migrationsFolder: folder });
    const db = fromPool(pool);
    return {
      db,
      drop: async () => {
        await db.close();
        await admin(`drop database if exists "${name}" with (force)`);
        removeFolder();
      },
    };
  }
  const client = await PGlite.create();
  await migratePglite(drizzlePglite(client), { migrationsFolder: folder });
  const db = fromPglite(client);
  return {
    db,
    drop: async () => {
      await db.close();
      removeFolder();
    },
  };
}

/**
 * For a describe that tests a migration: the demo database (to copy rows from) and a database migrated up to `tag`,
 * opened before its tests and closed (the older one dropped) after them.
 */
export function demoBesideDatabaseUpTo(tag: string): { demo: Database; old: Database } {
  const dbs = {} as { demo: Database; old: Database };
  let drop = async () => {};
  beforeAll(async () => {
    dbs.demo = await openDemoDatabase();
    ({ db: dbs.old, drop } = await databaseUpTo(tag));
  }, 120_000);
  afterAll(async () => {
    await dbs.demo?.close();
    await drop();
  });
  return dbs;
}
