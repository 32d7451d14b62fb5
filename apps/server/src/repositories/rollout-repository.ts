import {
  emptyCounts,
  ROLLOUT_STATUSES,
  type Rollout,
  type RolloutCounts,
  type RolloutState,
  type RolloutStatus,
  type RolloutTerminal,
  type RolloutWindow,
} from '@forecourt/contract/software';
import type { Target } from '@forecourt/contract/targets';
import type { Database } from '../db/client.ts';
import type { rollouts } from '../db/schema/software.ts';
import type { ChangeInput } from './change-repository.ts';
import { iso, num, Params } from './read-scope.ts';
import type { Row } from './rows.ts';
import { targetWhereSql } from './target-sql.ts';
import type { Tx } from './unit-of-work.ts';

type RolloutRow = Row<
  typeof rollouts,
  | 'id'
  | 'agent_id'
  | 'package_id'
  | 'target'
  | 'waves'
  | 'wave_wait_s'
  | 'window_start'
  | 'window_end'
  | 'max_failure_pct'
  | 'state'
  | 'wave'
  | 'wave_started_at'
  | 'paused_reason'
  | 'accepted_failures'
  | 'created_by'
  | 'created_by_id'
  | 'created_at'
  | 'updated_at'
> & { package_name: string | null; package_version: string | null };

const COLS = `r.id, r.agent_id, r.package_id, r.target, r.waves, r.wave_wait_s, r.window_start, r.window_end,
  r.max_failure_pct, r.state, r.wave, r.wave_started_at, r.paused_reason, r.accepted_failures, r.created_by,
  r.created_by_id, r.created_at, r.updated_at, p.name as package_name, p.version as package_version`;
const FROM = 'rollouts r left join software_packages p on p.id = r.package_id';

/** A rollout as stored, with what the tick needs besides the public shape. */
export interface RolloutRecord {
  id: number;
  agentId: number;
  packageId: number;
  target: Target;
  waves: number[];
  waveWaitS: number;
  window: RolloutWindow | null;
  maxFailurePct: number;
  state: RolloutState;
  wave: number;
  waveStartedAt: Date;
  pausedReason: string | null;
  acceptedFailures: number;
  createdBy: string;
  createdById: number | null;
  createdAt: Date;
  updatedAt: Date;
  package: { name: string; version: string } | null;
}

const json = <T>(v: unknown): T => (typeof v === 'string' ? JSON.parse(v) : v) as T;

function toRecord(r: RolloutRow): RolloutRecord {
  return {
    id: num(r.id),
    agentId: num(r.agent_id),
    packageId: num(r.package_id),
    target: json<Target>(r.target),
    waves: json<number[]>(r.waves),
    waveWaitS: num(r.wave_wait_s),
    window: r.window_start && r.window_end ? { start: r.window_start, end: r.window_end } : null,
    maxFailurePct: Number(r.max_failure_pct),
    state: r.state as RolloutState,
    wave: num(r.wave),
    waveStartedAt: new Date(r.wave_started_at),
    pausedReason: r.paused_reason,
    acceptedFailures: num(r.accepted_failures),
    createdBy: r.created_by,
    createdById: r.created_by_id,
    createdAt: new Date(r.created_at),
    updatedAt: new Date(r.updated_at),
    package:
      r.package_name !== null && r.package_version !== null
        ? { name: r.package_name, version: r.package_version }
        : null,
  };
}

/** Counts per wave and status of some rollouts. */
type CountRow = { rollout_id: number; wave: number; status: RolloutStatus; n: number | string };

/** The public shape of a rollout with its counts (overall and per wave). */
export function publicRollout(r: RolloutRecord, rows: readonly CountRow[]): Rollout {
  const counts = emptyCounts();
  const perWave = r.waves.map((percent, i) => ({ wave: i + 1, percent, ...emptyCounts() }));
  for (const c of rows) {
    const n = num(c.n);
    counts[c.status] += n;
    const w = perWave[num(c.wave) - 1];
    if (w) w[c.status] += n;
  }
  return {
    id: r.id,
    package_id: r.packageId,
    package: r.package,
    target: r.target,
    state: r.state,
    wave: r.wave,
    counts,
    wave_counts: perWave,
    waves: r.waves,
    wave_wait_s: r.waveWaitS,
    window: r.window,
    max_failure_pct: r.maxFailurePct,
    paused_reason: r.pausedReason,
    wave_started_at: r.waveStartedAt.toISOString(),
    created_by: r.createdBy,
    created_at: r.createdAt.toISOString(),
    updated_at: r.updatedAt.toISOString(),
  };
}

/** A terminal of a target, as a rollout takes it in. */
export interface Member {
  id: number;
  softwareVersion: string | null;
}

/** A terminal a tick moved (its place, for the change feed). */
type Moved = { terminal_id: number; site_id: number; company_id: number; agent_id: number };
const movedChange = (m: Moved): ChangeInput => ({
  kind: 'fleet',
  agentId: num(m.agent_id),
  companyId: num(m.company_id),
  siteId: num(m.site_id),
  terminalId: num(m.terminal_id),
});
const PLACE = 't.id as terminal_id, t.site_id, t.company_id, t.agent_id';

/** What the tick's settling moved, by what happened. */
export interface Settled {
  changes: ChangeInput[];
  count: number;
}

/**
 * Rollouts and their terminals (docs/rollouts.md). The rules (when a wave starts, when the rollout pauses, what
 * counts as done) are services/rollouts.ts'; this module writes what they decide, with the caller's unit of work,
 * each step one statement whatever the number of terminals.
 */
export function createRolloutRepository(database: Database) {
  const query = <T>(q: Tx | null, sql: string, params: unknown[]) =>
    q ? q<T>(sql, params) : database.query<T>(sql, params);

  async function countsOf(ids: number[], q: Tx | null = null): Promise<CountRow[]> {
    if (!ids.length) return [];
    return query<CountRow>(
      q,
      `select rollout_id, wave, status, count(*) as n from rollout_terminals
        where rollout_id = any($1::int[]) group by rollout_id, wave, status`,
      [ids],
    );
  }

  return {
    /** The live terminals of a target now, by id. */
    async members(tx: Tx, target: Target): Promise<Member[]> {
      const p = new Params();
      const rows = await tx<{ id: number; software_version: string | null }>(
        `select t.id, t.software_version from terminals t where ${targetWhereSql(target, p)} order by t.id`,
        p.values,
      );
      return rows.map((r) => ({ id: num(r.id), softwareVersion: r.software_version }));
    },

    /** Terminal ids already in the rollout. */
    async memberIds(tx: Tx, rolloutId: number): Promise<Set<number>> {
      const rows = await tx<{ terminal_id: number }>(
        'select terminal_id from rollout_terminals where rollout_id = $1',
        [rolloutId],
      );
      return new Set(rows.map((r) => num(r.terminal_id)));
    },

    async insert(
      tx: Tx,
      f: Pick<
        RolloutRecord,
        'agentId' | 'packageId' | 'target' | 'waves' | 'waveWaitS' | 'window' | 'maxFailurePct' | 'createdBy'
      > & { createdById: number; now: Date },
    ): Promise<number> {
      const rows = await tx<{ id: number }>(
        `insert into rollouts (agent_id, package_id, target, waves, wave_wait_s, window_start, window_end,
                               max_failure_pct, created_by, created_by_id, created_at, updated_at, wave_started_at)
         values ($1, $2, $3::jsonb, $4::jsonb, $5, $6, $7, $8, $9, $10, $11, $11, $11) returning id`,
        [
          f.agentId,
          f.packageId,
          JSON.stringify(f.target),
          JSON.stringify(f.waves),
          f.waveWaitS,
          f.window?.start ?? null,
          f.window?.end ?? null,
          f.maxFailurePct,
          f.createdBy,
          f.createdById,
          f.now,
        ],
      );
      return num(rows[0].id);
    },

    /** Adds terminals to a rollout (each once), in a wave and a status of the service's choosing. */
    async addTerminals(
      tx: Tx,
      rolloutId: number,
      rows: Array<{
        terminalId: number;
        wave: number;
        status: RolloutStatus;
        fromVersion: string | null;
        detail: string | null;
      }>,
      now: Date,
    ): Promise<void> {
      if (!rows.length) return;
      await tx(
        `insert into rollout_terminals (rollout_id, terminal_id, wave, status, from_version, detail, updated_at)
         select $1, u.terminal_id, u.wave, u.status, u.from_version, u.detail, $7
           from unnest($2::int[], $3::int[], $4::text[], $5::text[], $6::text[])
                with ordinality as u(terminal_id, wave, status, from_version, detail, n)
          order by u.n
         on conflict (rollout_id, terminal_id) do nothing`,
        [
          rolloutId,
          rows.map((r) => r.terminalId),
          rows.map((r) => r.wave),
          rows.map((r) => r.status),
          rows.map((r) => r.fromVersion),
          rows.map((r) => r.detail),
          now,
        ],
      );
    },

    /** A rollout (any agent's: the caller checks whose); with `lock`, locked for the unit of work. */
    async byId(id: number, q: Tx | null = null, lock = false): Promise<RolloutRecord | null> {
      const rows = await query<RolloutRow>(
        q,
        `select ${COLS} from ${FROM} where r.id = $1 ${lock ? 'for update of r' : ''}`,
        [id],
      );
      return rows[0] ? toRecord(rows[0]) : null;
    },

    /** A rollout in its public shape, counts included. */
    async publicById(id: number, q: Tx | null = null): Promise<Rollout | null> {
      const r = await this.byId(id, q);
      return r ? publicRollout(r, await countsOf([r.id], q)) : null;
    },

    /** An agent's rollouts, newest first. */
    async list(
      agentId: number,
      page: { limit: number; before?: string; state?: RolloutState },
    ): Promise<Rollout[]> {
      const p = new Params();
      const where = [`r.agent_id = ${p.add(agentId)}`];
      if (page.before) where.push(`r.id < ${p.add(page.before)}::int`);
      if (page.state) where.push(`r.state = ${p.add(page.state)}`);
      const rows = await database.query<RolloutRow>(
        `select ${COLS} from ${FROM} where ${where.join(' and ')} order by r.id desc limit ${p.add(page.limit)}`,
        p.values,
      );
      const records = rows.map(toRecord);
      const counts = await countsOf(records.map((r) => r.id));
      return records.map((r) =>
        publicRollout(
          r,
          counts.filter((c) => num(c.rollout_id) === r.id),
        ),
      );
    },

    /** The terminals of a rollout, newest row first (`before`: the id of the last row seen). */
    async terminals(
      rolloutId: number,
      page: { limit: number; before?: string; status?: RolloutStatus[] },
    ): Promise<RolloutTerminal[]> {
      const p = new Params();
      const where = [`rt.rollout_id = ${p.add(rolloutId)}`];
      if (page.before) where.push(`rt.id < ${p.add(page.before)}::bigint`);
      if (page.status?.length) where.push(`rt.status = any(${p.add(page.status)}::text[])`);
      const rows = await database.query<{
        id: number | string;
        terminal_id: number;
        terminal_no: string;
        site_id: number;
        site_title: string;
        wave: number;
        status: RolloutStatus;
        from_version: string | null;
        detail: string | null;
        updated_at: Date | string;
      }>(
        `select rt.id, rt.terminal_id, t.terminal_no, t.site_id, s.title as site_title, rt.wave, rt.status,
                rt.from_version, rt.detail, rt.updated_at
           from rollout_terminals rt join terminals t on t.id = rt.terminal_id join sites s on s.id = t.site_id
          where ${where.join(' and ')} order by rt.id desc limit ${p.add(page.limit)}`,
        p.values,
      );
      return rows.map((r) => ({
        id: num(r.id),
        terminal: { id: num(r.terminal_id), terminal_id: r.terminal_no },
        site: { id: num(r.site_id), title: r.site_title },
        wave: num(r.wave),
        status: r.status,
        from_version: r.from_version,
        detail: r.detail,
        updated_at: iso(r.updated_at)!,
      }));
    },

    /** Running and paused rollouts, and finished ones whose terminals are still followed. */
    async followed(now: Date): Promise<number[]> {
      const rows = await database.query<{ id: number }>(
        `select id from rollouts where state in ('running', 'paused') or tracked_until > $1 order by id`,
        [now],
      );
      return rows.map((r) => num(r.id));
    },

    /** Ids of running or paused rollouts using a package. */
    async openWithPackage(tx: Tx, packageId: number): Promise<number[]> {
      const rows = await tx<{ id: number }>(
        `select id from rollouts where package_id = $1 and state in ('running', 'paused') order by id`,
        [packageId],
      );
      return rows.map((r) => num(r.id));
    },

    /** Writes a rollout's state fields. */
    async update(
      tx: Tx,
      id: number,
      f: {
        state?: RolloutState;
        pausedReason?: string | null;
        acceptedFailures?: number;
        wave?: number;
        waveStartedAt?: Date;
        trackedUntil?: Date | null;
        finishedAt?: Date | null;
      },
      now: Date,
    ): Promise<void> {
      const p = new Params();
      const set = [`updated_at = ${p.add(now)}`];
      if (f.state !== undefined) set.push(`state = ${p.add(f.state)}`);
      if (f.pausedReason !== undefined) set.push(`paused_reason = ${p.add(f.pausedReason)}`);
      if (f.acceptedFailures !== undefined) set.push(`accepted_failures = ${p.add(f.acceptedFailures)}`);
      if (f.wave !== undefined) set.push(`wave = ${p.add(f.wave)}`);
      if (f.waveStartedAt !== undefined) set.push(`wave_started_at = ${p.add(f.waveStartedAt)}`);
      if (f.trackedUntil !== undefined) set.push(`tracked_until = ${p.add(f.trackedUntil)}`);
      if (f.finishedAt !== undefined) set.push(`finished_at = ${p.add(f.finishedAt)}`);
      await tx(`update rollouts set ${set.join(', ')} where id = ${p.add(id)}`, p.values);
    },

    /** Counts of one wave of a rollout. */
    async waveCounts(tx: Tx, rolloutId: number, wave: number): Promise<RolloutCounts> {
      const rows = await tx<{ status: RolloutStatus; n: number | string }>(
        `select status, count(*) as n from rollout_terminals where rollout_id = $1 and wave = $2 group by status`,
        [rolloutId, wave],
      );
      const c = emptyCounts();
      for (const r of rows)
        if ((ROLLOUT_STATUSES as readonly string[]).includes(r.status)) c[r.status] = num(r.n);
      return c;
    },

    /** How many terminals of waves up to `wave` (or all, without it) have not finished. */
    async unfinished(tx: Tx, rolloutId: number, wave?: number): Promise<number> {
      const rows = await tx<{ n: number | string }>(
        `select count(*) as n from rollout_terminals
          where rollout_id = $1 and status in ('pending', 'sent', 'installing') and ($2::int is null or wave <= $2)`,
        [rolloutId, wave ?? null],
      );
      return num(rows[0]?.n ?? 0);
    },

    /**
     * Moves terminals on from what their install command and the terminal itself say (docs/rollouts.md): an ack
     * `ok` → installing; an ack `failed`, a command not fetched or not acknowledged in time → failed; installing and
     * the terminal reports the package's version → done; installing past `wave_wait_s` after it received the
     * command → failed; installing or done, and the terminal went offline within `wave_wait_s` after acking →
     * failed.
     */
    async settle(tx: Tx, r: RolloutRecord, version: string, now: Date): Promise<Settled> {
      const wait = r.waveWaitS;
      const acked = await tx<Moved>(
        `with moved as (
           update rollout_terminals rt
              set status = case c.state when 'confirmed' then 'installing' else 'failed' end,
                  acked_at = case c.state when 'confirmed' then coalesce(c.completed_at, $2) when 'failed' then
                             coalesce(c.completed_at, $2) else rt.acked_at end,
                  detail = case c.state
                             when 'confirmed' then coalesce(c.detail, 'Installed; waiting for the terminal to report ' || $4)
                             when 'failed' then coalesce(c.detail, 'The terminal reported a failure')
                             when 'expired' then 'Not fetched by the terminal within ' || $3 || ' s'
                             else 'Not acknowledged within ' || $3 || ' s of receiving the command' end,
                  updated_at = $2
             from commands c
            where rt.rollout_id = $1 and rt.status = 'sent' and c.id = rt.command_id
              and c.state in ('confirmed', 'failed', 'expired', 'timed_out')
           returning rt.terminal_id
         )
         select ${PLACE} from moved join terminals t on t.id = moved.terminal_id`,
        [r.id, now, String(wait), version],
      );
      const reported = await tx<Moved>(
        `with moved as (
           update rollout_terminals rt set status = 'done', detail = 'Reported version ' || t.software_version,
                  updated_at = $2
             from terminals t
            where rt.rollout_id = $1 and rt.status = 'installing' and t.id = rt.terminal_id
              and t.software_version = $3
           returning rt.terminal_id
         )
         select ${PLACE} from moved join terminals t on t.id = moved.terminal_id`,
        [r.id, now, version],
      );
      const late = await tx<Moved>(
        `with moved as (
           update rollout_terminals rt
              set status = 'failed', updated_at = $2,
                  detail = 'Did not report version ' || $4 || ' within ' || $3 || ' s of receiving the command'
             from commands c
            where rt.rollout_id = $1 and rt.status = 'installing' and c.id = rt.command_id
              and coalesce(c.sent_at, rt.sent_at) + make_interval(secs => $3::float8) <= $2
           returning rt.terminal_id
         )
         select ${PLACE} from moved join terminals t on t.id = moved.terminal_id`,
        [r.id, now, String(wait), version],
      );
      const offline = await tx<Moved>(
        `with moved as (
           update rollout_terminals rt
              set status = 'failed', updated_at = $2,
                  detail = 'Went offline within ' || $3 || ' s after acknowledging the install'
             from terminals t
            where rt.rollout_id = $1 and rt.status in ('installing', 'done') and t.id = rt.terminal_id
              and t.connectivity = 'off' and rt.acked_at is not null
              and t.connectivity_changed_at >= rt.acked_at
              and t.connectivity_changed_at <= rt.acked_at + make_interval(secs => $3::float8)
           returning rt.terminal_id
         )
         select ${PLACE} from moved join terminals t on t.id = moved.terminal_id`,
        [r.id, now, String(wait)],
      );
      const all = [...acked, ...reported, ...late, ...offline];
      return { changes: all.map(movedChange), count: all.length };
    },

    /**
     * The pending terminals of waves up to the current one, locked, with the local time of their site now (minutes
     * after midnight): the service picks those inside the window.
     */
    async due(
      tx: Tx,
      r: RolloutRecord,
      wave: number,
      now: Date,
    ): Promise<Array<{ id: number; localMinutes: number }>> {
      const rows = await tx<{ id: number | string; local_minutes: number | string }>(
        `select rt.id, (extract(hour from ($3::timestamptz at time zone s.timezone)) * 60
                        + extract(minute from ($3::timestamptz at time zone s.timezone)))::int as local_minutes
           from rollout_terminals rt
           join terminals t on t.id = rt.terminal_id
           join sites s on s.id = t.site_id
          where rt.rollout_id = $1 and rt.status = 'pending' and rt.wave <= $2
          order by rt.id
          for update of rt`,
        [r.id, wave, now],
      );
      return rows.map((x) => ({ id: num(x.id), localMinutes: num(x.local_minutes) }));
    },

    /**
     * Sends the install command to these pending terminals (rows of `due`): each command row and the terminal's move
     * to `sent` in one statement. Terminals already on the version are skipped, decommissioned ones too. Answers
     * the changes (a 'command' change per command wakes the terminal's long-poll on every node).
     */
    async send(
      tx: Tx,
      r: RolloutRecord,
      pkg: { id: number; version: string; sha256: string; size: number },
      rowIds: number[],
      now: Date,
    ): Promise<Settled> {
      if (!rowIds.length) return { changes: [], count: 0 };
      const due = `select rt.id as rt_id, t.id, t.site_id, t.company_id, t.agent_id, t.software_version,
                          t.decommissioned_at
                     from rollout_terminals rt join terminals t on t.id = rt.terminal_id
                    where rt.id = any($2::bigint[]) and rt.rollout_id = $1 and rt.status = 'pending'`;
      const skipped = await tx<Moved>(
        `with due as (${due}),
         moved as (
           update rollout_terminals rt
              set status = 'skipped', updated_at = $3,
                  detail = case when due.decommissioned_at is not null then 'Decommissioned before it was sent'
                                else 'Already on version ' || $4 end
             from due
            where rt.id = due.rt_id and (due.decommissioned_at is not null or due.software_version = $4)
           returning rt.terminal_id
         )
         select ${PLACE} from moved join terminals t on t.id = moved.terminal_id`,
        [r.id, rowIds, now, pkg.version],
      );
      const payload = {
        kind: 'install',
        software_id: pkg.id,
        version: pkg.version,
        sha256: pkg.sha256,
        size: pkg.size,
        url: `/api/device/v1/software/${pkg.id}`,
        ack_timeout_s: r.waveWaitS,
      };
      const sent = await tx<Moved & { command_id: number }>(
        `with due as (${due}),
         cmd as (
           insert into commands (kind, terminal_id, site_id, company_id, agent_id, state, requested_by,
                                 requested_by_name, payload, created_at, updated_at, expires_at)
           select 'install', due.id, due.site_id, due.company_id, due.agent_id, 'queued', $5, $6, $7::jsonb, $3, $3,
                  $3::timestamptz + make_interval(secs => $8::float8)
             from due
            where due.decommissioned_at is null and due.software_version is distinct from $4
            order by due.rt_id
           returning id, terminal_id, site_id, company_id, agent_id
         ),
         events as (
           insert into command_events (command_id, state, detail, at)
           select cmd.id, 'queued', $9, $3 from cmd
         ),
         moved as (
           update rollout_terminals rt set status = 'sent', command_id = cmd.id, sent_at = $3, acked_at = null,
                  detail = null, updated_at = $3
             from cmd
            where rt.rollout_id = $1 and rt.terminal_id = cmd.terminal_id
         )
         select cmd.id as command_id, cmd.terminal_id, cmd.site_id, cmd.company_id, cmd.agent_id from cmd`,
        [
          r.id,
          rowIds,
          now,
          pkg.version,
          r.createdById,
          r.createdBy,
          JSON.stringify(payload),
          r.waveWaitS,
          `Install ${pkg.version} (rollout ${r.id}, wave ${r.wave})`,
        ],
      );
      const changes = [
        ...skipped.map(movedChange),
        ...sent.flatMap((m) => [movedChange(m), { ...movedChange(m), kind: 'command' as const }]),
      ];
      return { changes, count: skipped.length + sent.length };
    },

    /**
     * Cancelling: install commands the terminals have not fetched are withdrawn (they expire at once, and their
     * terminals go back to pending); fetched ones go on and are followed.
     */
    async withdraw(tx: Tx, rolloutId: number, now: Date): Promise<ChangeInput[]> {
      const rows = await tx<Moved & { command_id: number }>(
        `with withdrawn as (
           update commands c set state = 'expired', detail = 'Withdrawn: the rollout was cancelled',
                  updated_at = $2, completed_at = $2
             from rollout_terminals rt
            where rt.rollout_id = $1 and rt.status = 'sent' and c.id = rt.command_id and c.state = 'queued'
           returning c.id, c.terminal_id, c.site_id, c.company_id, c.agent_id
         ),
         events as (
           insert into command_events (command_id, state, detail, at)
           select w.id, 'expired', 'Withdrawn: the rollout was cancelled', $2 from withdrawn w
         ),
         back as (
           update rollout_terminals rt set status = 'pending', command_id = null, sent_at = null,
                  detail = 'Withdrawn before the terminal fetched it: the rollout was cancelled', updated_at = $2
             from withdrawn w
            where rt.rollout_id = $1 and rt.command_id = w.id
         )
         select w.id as command_id, w.terminal_id, w.site_id, w.company_id, w.agent_id from withdrawn w`,
        [rolloutId, now],
      );
      return rows.flatMap((m) => [movedChange(m), { ...movedChange(m), kind: 'command' as const }]);
    },

    /** Marks what is still pending of a cancelled rollout as never to be sent (detail only). */
    async notePending(tx: Tx, rolloutId: number, detail: string, now: Date): Promise<void> {
      await tx(
        `update rollout_terminals set detail = $2, updated_at = $3
          where rollout_id = $1 and status = 'pending' and detail is null`,
        [rolloutId, detail, now],
      );
    },
  };
}
export type RolloutRepository = ReturnType<typeof createRolloutRepository>;
