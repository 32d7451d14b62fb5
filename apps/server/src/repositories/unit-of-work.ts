import type { Database, QueryFn } from '../db/client.ts';
import { CHANGE_CHANNEL, type ChangeInput } from './change-repository.ts';

/**
 * The unit of work: the one way anything is written (docs/decisions/0016-write-path.md). A write runs in one
 * transaction; inside it the repositories write their rows with `tx` (a query function), `tx.audit(...)` records
 * who did what, and `tx.changed(...)` records the changes the nodes act on (caches, streams, long-polls). The audit
 * log and the change table are written here and nowhere else (`npm run lint` checks it).
 *
 * After the commit, a write that recorded changes hands them to this node's `settle` (plugins/node-sync.ts applies
 * them at once, dropping the caches): a read right after the write, on this node, never sees a snapshot older than
 * it. Every node (this one again) applies them when they reach its change feed.
 */

/** One audit entry: who (the user and its agent), what (action, entity, id), before and after. */
export interface AuditEntry {
  userId: number | null;
  username: string;
  agentId: number | null;
  action: string;
  entity: string;
  entityId: number | null;
  before: unknown;
  after: unknown;
  /** When it happened; the transaction's time when left out. */
  at?: Date;
}

/** The query function of a unit of work, with the audit and the change feed of the same transaction. */
export type Tx = QueryFn & {
  /** Records audit entries, committed with the write or not at all. */
  audit(entries: AuditEntry | readonly AuditEntry[]): Promise<void>;
  /** Records changes for every node's feed (equal changes once), committed with the write or not at all. */
  changed(changes: ChangeInput | readonly ChangeInput[]): Promise<void>;
};

/** What applies a committed write's changes on this node: resolves when they have been applied. */
export type Settle = (write: { lastChangeId: number; changes: readonly ChangeInput[] }) => Promise<void>;

const settlers = new WeakMap<Database, Settle>();

/**
 * Makes every unit of work on `database` call `settle` after its commit with the changes it recorded. Returns the
 * function that stops it. Without one (no node: migrations, seeding, scripts) nothing is called.
 */
export function settleWritesThrough(database: Database, settle: Settle): () => void {
  settlers.set(database, settle);
  return () => {
    if (settlers.get(database) === settle) settlers.delete(database);
  };
}

/** Runs `fn` as one unit of work: its rows, audit entries and changes commit together, or none of them. */
export async function unitOfWork<R>(database: Database, fn: (tx: Tx) => Promise<R>): Promise<R> {
  let lastChangeId = 0;
  const recorded: ChangeInput[] = [];
  const result = await database.transaction(async (q) => {
    const tx: Tx = Object.assign(q, {
      audit: (entries: AuditEntry | readonly AuditEntry[]) =>
        insertAudit(q, Array.isArray(entries) ? entries : [entries as AuditEntry]),
      changed: async (changes: ChangeInput | readonly ChangeInput[]) => {
        const list: readonly ChangeInput[] = Array.isArray(changes) ? changes : [changes as ChangeInput];
        const id = await insertChanges(q, list);
        if (id > lastChangeId) lastChangeId = id;
        recorded.push(...list);
      },
    });
    return fn(tx);
  });
  const settle = settlers.get(database);
  if (lastChangeId > 0 && settle) await settle({ lastChangeId, changes: recorded });
  return result;
}

async function insertAudit(q: QueryFn, entries: readonly AuditEntry[]): Promise<void> {
  if (!entries.length) return;
  const json = (v: unknown) => (v === null || v === undefined ? null : JSON.stringify(v));
  await q(
    `insert into audit_log (at, user_id, username, agent_id, action, entity, entity_id, before, after)
     select coalesce(u.at, now()), u.user_id, u.username, u.agent_id, u.action, u.entity, u.entity_id, u.before,
            u.after
       from unnest($1::timestamptz[], $2::int[], $3::text[], $4::int[], $5::text[], $6::text[], $7::bigint[],
                   $8::jsonb[], $9::jsonb[])
            with ordinality as u(at, user_id, username, agent_id, action, entity, entity_id, before, after, n)
      order by u.n`,
    [
      entries.map((e) => e.at ?? null),
      entries.map((e) => e.userId),
      entries.map((e) => e.username),
      entries.map((e) => e.agentId),
      entries.map((e) => e.action),
      entries.map((e) => e.entity),
      entries.map((e) => e.entityId),
      entries.map((e) => json(e.before)),
      entries.map((e) => json(e.after)),
    ],
  );
}

const COLUMNS = ['agentId', 'companyId', 'siteId', 'terminalId', 'pumpId', 'userId'] as const;

/**
 * The CTEs that insert changes (equal ones once), their parameters numbered from `$<first>`: `changes_ins` returns
 * the ids. The transaction id is taken before the ids are drawn: a reader that sees a gap in the ids can then tell,
 * from its snapshots, when every transaction that could still fill it has ended (services/change-feed.ts).
 */
function changesCtes(changes: readonly ChangeInput[], first: number): { sql: string; params: unknown[] } {
  const seen = new Set<string>();
  const rows: ChangeInput[] = [];
  for (const c of changes) {
    const key = [c.kind, ...COLUMNS.map((k) => c[k] ?? '')].join('|');
    if (seen.has(key)) continue;
    seen.add(key);
    rows.push(c);
  }
  const ids = (k: (typeof COLUMNS)[number]) => rows.map((r) => (r[k] != null && r[k] > 0 ? r[k] : null));
  const $ = (i: number) => `$${first + i}`;
  return {
    sql: `changes_tx as materialized (select pg_current_xact_id() as xid),
          changes_ins as (
            insert into changes (id, xid, kind, agent_id, company_id, site_id, terminal_id, pump_id, user_id)
            select nextval('changes_id_seq'), changes_tx.xid, u.kind, u.agent_id, u.company_id, u.site_id,
                   u.terminal_id, u.pump_id, u.user_id
              from changes_tx, unnest(${$(0)}::text[], ${$(1)}::int[], ${$(2)}::int[], ${$(3)}::int[], ${$(4)}::int[],
                                      ${$(5)}::int[], ${$(6)}::int[])
                   with ordinality as u(kind, agent_id, company_id, site_id, terminal_id, pump_id, user_id, n)
             order by u.n
            returning id
          )`,
    params: [rows.map((r) => r.kind), ...COLUMNS.map(ids)],
  };
}

/** Inserts changes (equal ones once) and wakes every node after the commit (NOTIFY); answers the newest id. */
async function insertChanges(q: QueryFn, changes: readonly ChangeInput[]): Promise<number> {
  if (!changes.length) return 0;
  const ctes = changesCtes(changes, 1);
  const out = await q<{ max: string | number | null }>(
    `with ${ctes.sql} select max(id) as max from changes_ins`,
    ctes.params,
  );
  // The wake-up goes after the commit, outside the transaction, at most one per node every few ms: a NOTIFY inside
  // each writing transaction would make PostgreSQL commit them one at a time.
  if (q.notifyAfterCommit) q.notifyAfterCommit(CHANGE_CHANNEL);
  else await q(`select pg_notify('${CHANGE_CHANNEL}', '')`);
  return Number(out[0]?.max ?? 0);
}

/**
 * A repository's write as data-modifying CTEs of one statement (`name as (sql)`, parameters `$1`… of `params`),
 * for a unit of work that is that one statement (`unitOfWorkStatement`).
 */
export interface WriteStatement {
  ctes: ReadonlyArray<readonly [name: string, sql: string]>;
  params: unknown[];
}

/**
 * A unit of work that is one statement, one round trip: the write's CTEs and the insert of its changes (recorded
 * as `tx.changed` would) run as one statement, so in one transaction of its own, committed when it answers — no
 * `begin` and `commit` of their own. For a hot write whose changes are known before it runs (device telemetry,
 * docs/decisions/0023-device-write-batching.md); anything that reads its own results first uses `unitOfWork`.
 * After the commit, the same as `unitOfWork`: this node's `settle`, and the coalesced NOTIFY.
 */
export async function unitOfWorkStatement(
  database: Database,
  write: WriteStatement,
  changes: readonly ChangeInput[],
): Promise<void> {
  const parts = write.ctes.map(([name, sql]) => `${name} as (${sql})`);
  let sql = `with ${parts.join(',\n')} select 0 as max`;
  let params = write.params;
  if (changes.length) {
    const ctes = changesCtes(changes, write.params.length + 1);
    sql = `with ${[...parts, ctes.sql].join(',\n')} select max(id) as max from changes_ins`;
    params = [...write.params, ...ctes.params];
  }
  const out = await database.query<{ max: string | number | null }>(sql, params);
  const lastChangeId = Number(out[0]?.max ?? 0);
  if (!changes.length) return;
  if (database.notifyAfterCommit) database.notifyAfterCommit(CHANGE_CHANNEL);
  else await database.query(`select pg_notify('${CHANGE_CHANNEL}', '')`);
  const settle = settlers.get(database);
  if (lastChangeId > 0 && settle) await settle({ lastChangeId, changes: [...changes] });
}
