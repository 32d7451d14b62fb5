import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Change } from '../src/repositories/change-repository.ts';
import { unitOfWork } from '../src/repositories/unit-of-work.ts';
import type { PostgresTemplate } from './db-template.ts';
import { buildTestApp, postgresUnavailable, type TestApp, testDbKind } from './helper.ts';

/** Waits until `check` holds, looking every 10 ms (the test's own timeout bounds it). */
async function until(check: () => boolean | Promise<boolean>) {
  while (!(await check())) await new Promise((r) => setTimeout(r, 10));
}

describe.skipIf(postgresUnavailable)(`change feed (${testDbKind})`, () => {
  let t: TestApp;
  const seen: Change[] = [];

  beforeAll(async () => {
    t = await buildTestApp();
    await t.app.feed.ready;
    t.app.feed.subscribe((changes) => seen.push(...changes));
  });
  afterAll(async () => {
    await t?.close();
  });

  const record = (kind: 'telemetry' | 'alert' | 'shock', terminalId: number) =>
    unitOfWork(t.database, (q) => q.changed([{ kind, agentId: 1, siteId: 2, terminalId }]));
  const ids = () => seen.map((c) => c.id);

  it('hands every committed change to the subscribers, in id order, with where it happened', async () => {
    const before = seen.length;
    await record('telemetry', 101);
    await record('alert', 102);
    await until(() => seen.length >= before + 2);
    const got = seen.slice(before);
    expect(got.map((c) => [c.kind, c.agentId, c.siteId, c.terminalId])).toEqual([
      ['telemetry', 1, 2, 101],
      ['alert', 1, 2, 102],
    ]);
    expect(got[1].id).toBeGreaterThan(got[0].id);
    expect(t.app.feed.cursor).toBe(got[1].id);
  });

  it('records equal changes of one transaction once, and nothing when the transaction rolls back', async () => {
    const before = seen.length;
    await expect(
      unitOfWork(t.database, async (q) => {
        await q.changed([{ kind: 'shock', terminalId: 7 }]);
        throw new Error('the write failed');
      }),
    ).rejects.toThrow('the write failed');
    await unitOfWork(t.database, (q) =>
      q.changed([
        { kind: 'pump', terminalId: 8, pumpId: 3 },
        { kind: 'pump', terminalId: 8, pumpId: 3 },
      ]),
    );
    await until(() => seen.length >= before + 1);
    // The rolled-back id is a gap the feed settles and passes; the next change still arrives.
    await until(() => t.app.feed.cursor >= seen[seen.length - 1].id);
    expect(seen.slice(before).map((c) => [c.kind, c.pumpId])).toEqual([['pump', 3]]);
    const rows = await t.database.query<{ n: string }>(
      "select count(*) as n from changes where kind = 'shock'",
    );
    expect(Number(rows[0].n)).toBe(0);
  });

  it('gives a resuming reader its backlog, and reset when it is older than the retention', async () => {
    const from = t.app.feed.cursor;
    await record('telemetry', 201);
    await record('telemetry', 202);
    await until(() => t.app.feed.cursor > from + 1);
    const backlog = await t.app.feed.backlog(from, t.app.feed.cursor);
    expect(backlog !== 'reset' && backlog.map((c) => c.terminalId)).toEqual([201, 202]);
    expect(await t.app.feed.backlog(t.app.feed.cursor, t.app.feed.cursor)).toEqual([]);
    // An id ahead of the feed (another database, or a made-up one) starts over too.
    expect(await t.app.feed.backlog(t.app.feed.cursor + 1000, t.app.feed.cursor)).toBe('reset');

    // Changes older than the retention go; a reader behind them must start over.
    await t.database.query("update changes set at = now() - interval '1 hour' where id <= $1", [from + 1]);
    const pruned = await t.app.repos.changes.prune(15 * 60_000, t.app.feed.cursor + 1);
    expect(pruned).toBeGreaterThan(0);
    expect(await t.app.feed.backlog(from, t.app.feed.cursor)).toBe('reset');
    const after = await t.app.feed.backlog(from + 1, t.app.feed.cursor);
    expect(after !== 'reset' && after.map((c) => c.terminalId)).toEqual([202]);
  });

  it('tells a caller when this node has passed a change, or that it has not within the wait', async () => {
    const from = t.app.feed.cursor;
    const waited = t.app.feed.caughtUp(from + 1, 30_000);
    await record('shock', 401);
    expect(await waited).toBe(true);
    expect(t.app.feed.cursor).toBeGreaterThanOrEqual(from + 1);
    expect(await t.app.feed.caughtUp(t.app.feed.cursor, 0)).toBe(true);
    expect(await t.app.feed.caughtUp(t.app.feed.cursor + 1_000, 50)).toBe(false);
  });

  it.skipIf(testDbKind !== 'postgres')(
    'is not held up by a transaction of another database on the same server',
    async () => {
      // A write left open in another database (the server's `postgres`), as a long `create database` is.
      const url = new URL((JSON.parse(inject('postgresTemplate')) as PostgresTemplate).adminUrl);
      const elsewhere = new pg.Client({ connectionString: url.toString() });
      await elsewhere.connect();
      try {
        await elsewhere.query('begin');
        await elsewhere.query('select pg_current_xact_id()');
        const before = seen.length;
        // A rolled-back write leaves a gap in the ids: settled once this database's older transactions ended.
        await unitOfWork(t.database, async (q) => {
          await q.changed([{ kind: 'telemetry', terminalId: 501 }]);
          throw new Error('rolled back');
        }).catch(() => {});
        await record('telemetry', 502);
        const deadline = Date.now() + 10_000;
        await until(() => seen.length > before || Date.now() > deadline);
        expect(seen.slice(before).map((c) => c.terminalId)).toEqual([502]);
      } finally {
        await elsewhere.query('rollback').catch(() => {});
        await elsewhere.end();
      }
    },
  );

  it.skipIf(testDbKind !== 'postgres')(
    'never skips a change whose transaction commits after a later one (two writers)',
    async () => {
      const before = seen.length;
      let commitFirst: () => void = () => {};
      const held = new Promise<void>((resolve) => {
        commitFirst = resolve;
      });
      let firstRecorded: () => void = () => {};
      const recorded = new Promise<void>((resolve) => {
        firstRecorded = resolve;
      });
      // Writer 1 draws its id first and commits last.
      const slow = unitOfWork(t.database, async (q) => {
        await q.changed([{ kind: 'telemetry', terminalId: 301 }]);
        firstRecorded();
        await held;
      });
      await recorded;
      await record('telemetry', 302);
      // The feed reads several times while writer 1 is still open: nothing past the gap may come out.
      const reads = t.app.feed.stats.reads;
      await until(() => t.app.feed.stats.reads >= reads + 5);
      expect(seen.slice(before).map((c) => c.terminalId)).toEqual([]);
      commitFirst();
      await slow;
      await until(() => seen.length >= before + 2);
      expect(seen.slice(before).map((c) => c.terminalId)).toEqual([301, 302]);
      expect(ids()).toEqual([...ids()].sort((a, b) => a - b));
    },
    // Alone it takes under a second; beside the whole suite on two cores it once ran out of the 30 s default.
    120_000,
  );
});
