import pg from 'pg';

export const POSTGRES_ADMIN_URL =
  process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

async function admin<T>(fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: POSTGRES_ADMIN_URL, connectionTimeoutMillis: 3000 });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}

export async function postgresReachable(): Promise<boolean> {
  try {
    await admin((c) => c.query('select 1'));
    return true;
  } catch {
    return false;
  }
}

export async function databaseExists(name: string): Promise<boolean> {
  return admin(
    async (c) => (await c.query('select 1 from pg_database where datname = $1', [name])).rowCount === 1,
  );
}

/** A new, empty database (or a copy of `template`); dropped by the returned function. */
export async function freshDatabase(
  prefix: string,
  template?: string,
): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `${prefix}_${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
  await admin((c) => c.query(`create database ${name}${template ? ` template ${template}` : ''}`));
  return {
    url: withDatabase(POSTGRES_ADMIN_URL, name),
    drop: () => admin(async (c) => void (await c.query(`drop database if exists ${name} with (force)`))),
  };
}

export async function renameDatabase(from: string, to: string): Promise<void> {
  await admin(async (c) => {
    await c.query(`drop database if exists ${to} with (force)`);
    // A stopped server's last connection may still be closing; a rename needs the database to itself.
    // pg_terminate_backend does not wait for the backend to exit: retry the rename for a few seconds.
    for (let attempt = 1; ; attempt++) {
      await c.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = $1', [from]);
      try {
        await c.query(`alter database ${from} rename to ${to}`);
        return;
      } catch (err) {
        if ((err as { code?: string }).code !== '55006' || attempt >= 20) throw err;
        await new Promise((r) => setTimeout(r, 500));
      }
    }
  });
}

export async function dropDatabase(name: string): Promise<void> {
  await admin(async (c) => void (await c.query(`drop database if exists ${name} with (force)`)));
}
