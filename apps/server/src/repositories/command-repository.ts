import type { Target } from '@forecourt/contract/targets';
import type { Command, CommandKind, CommandState, RebootType } from '@forecourt/contract/terminals';
import type { Database, QueryFn } from '../db/client.ts';
import type { commands } from '../db/schema/commands.ts';
import type { terminals } from '../db/schema/org.ts';
import type { ChangeInput } from './change-repository.ts';
import { type CommandDbRow, commandSelect, OPEN_STATES_SQL, toCommand } from './command-read-model.ts';
import { type PumpDbRow, type PumpRow, pumpSelect, toPumpRow } from './pump-read-model.ts';
import { settlePumps } from './pump-repository.ts';
import { Params } from './read-scope.ts';
import type { Row } from './rows.ts';
import { targetWhereSql } from './target-sql.ts';
import { unitOfWork } from './unit-of-work.ts';

export interface CommandTimings {
  /** Seconds a queued command waits to be fetched before it expires. */
  queueTtlS: number;
  /** Seconds a fetched pump command has to be acknowledged before it times out. */
  pumpAckTimeoutS: number;
  /** Seconds a fetched reboot has to be acknowledged (the terminal is down meanwhile). */
  rebootAckTimeoutS: number;
}

export const DEFAULT_TIMINGS: CommandTimings = {
  queueTtlS: 300,
  pumpAckTimeoutS: 60,
  rebootAckTimeoutS: 120,
};

export interface Requester {
  userId: number;
  name: string;
}

/** What a device fetches: `{id, kind, pump_no?, reboot_type?, created_at}`. */
export interface DeviceCommandRow {
  id: number;
  kind: CommandKind;
  pumpNo: number | null;
  rebootType: RebootType | null;
  /** What an `install` carries: `{software_id, version, sha256, size, url}` (services/rollouts.ts). */
  payload: Record<string, unknown> | null;
  createdAt: Date;
}

/** A command whose state a sweep or an ack just changed. */
export interface Transition {
  id: number;
  kind: CommandKind;
  state: CommandState;
  terminalId: number;
  siteId: number;
  companyId: number;
  agentId: number;
  pumpId: number | null;
}

export type TurnResult =
  | { ok: true; pump: PumpRow; command: Command }
  | { ok: false; reason: 'already' | 'pending'; pump: PumpRow }
  | { ok: false; reason: 'missing' };

/** A reboot of every terminal of a target: the commands queued, and the terminals left out (one was pending). */
export interface BulkRebootResult {
  commandIds: number[];
  terminalIds: number[];
  skipped: number;
}

export type RebootResult =
  | { ok: true; command: Command }
  | { ok: false; reason: 'pending'; terminalNo: string }
  | { ok: false; reason: 'missing' };

/** Appends one history row per changed command. */
async function logEvents(
  q: QueryFn,
  ids: number[],
  states: string[],
  details: (string | null)[],
  at: Date | null,
) {
  if (!ids.length) return;
  await q(
    `insert into command_events (command_id, state, detail, at)
     select id, state, detail, coalesce($4::timestamptz, now())
       from unnest($1::int[], $2::text[], $3::text[]) as u(id, state, detail)`,
    [ids, states, details, at],
  );
}

/** Where a command is, as its row says. */
type CommandPlace = Row<
  typeof commands,
  'kind' | 'terminal_id' | 'site_id' | 'company_id' | 'agent_id' | 'pump_id'
>;

/**
 * The live-feed change of a command's new state: 'pump' for a pump command, 'reboot' for a reboot; an install (a
 * rollout's) records the internal 'command' change, which wakes long-polls but reaches no stream (the rollout's own
 * 'fleet' changes tell the screens).
 */
const commandChange = (c: CommandPlace): ChangeInput => ({
  kind: c.kind === 'reboot' ? 'reboot' : c.kind === 'install' ? 'command' : 'pump',
  agentId: c.agent_id,
  companyId: c.company_id,
  siteId: c.site_id,
  terminalId: c.terminal_id,
  pumpId: c.pump_id,
});

/** The transition a command row that just changed state tells. */
const transitionOf = (r: CommandPlace & Row<typeof commands, 'id' | 'state'>): Transition => ({
  id: Number(r.id),
  kind: r.kind,
  state: r.state,
  terminalId: r.terminal_id,
  siteId: r.site_id,
  companyId: r.company_id,
  agentId: r.agent_id,
  pumpId: r.pump_id,
});

/**
 * Commands to devices (pump on/off, reboot) and their state history. Every state a command takes (queued, sent,
 * confirmed, failed, expired, timed out) records its change for the live feed in the same transaction.
 */
export function createCommandRepository(database: Database, timings: CommandTimings = DEFAULT_TIMINGS) {
  async function byId(q: QueryFn, id: number): Promise<Command | null> {
    const rows = await q<CommandDbRow>(`${commandSelect} where c.id = $1`, [id]);
    return rows[0] ? toCommand(rows[0]) : null;
  }

  return {
    timings,

    /**
     * The pump state machine of docs/product.md as one conditional UPDATE: only an off pump (0/0) can be turned on and
     * only an on pump (1/1) turned off; the requested status is set at once (pending until the device confirms)
     * and a command is queued for the pump's controller terminal, in the same transaction.
     */
    async turnPump(pumpId: number, target: 0 | 1, by: Requester): Promise<TurnResult> {
      return unitOfWork(database, async (q) => {
        const updated = await q<Row<typeof commands, 'id' | 'terminal_id'>>(
          `update pumps set status = $2, updated_at = now()
            where id = $1 and status = last_synapse_status and status <> $2
            returning id, terminal_id`,
          [pumpId, target],
        );
        const pumpRows = await q<PumpDbRow>(`${pumpSelect} where p.id = $1`, [pumpId]);
        if (!pumpRows[0]) return { ok: false, reason: 'missing' } as const;
        const pump = toPumpRow(pumpRows[0]);
        if (!updated[0]) {
          return {
            ok: false,
            reason: pump.status !== pump.lastSynapseStatus ? 'pending' : 'already',
            pump,
          } as const;
        }
        const inserted = await q<Row<typeof commands, 'id'> & CommandPlace>(
          `insert into commands (kind, terminal_id, site_id, company_id, agent_id, pump_id, pump_no, state,
                                 requested_by, requested_by_name, expires_at)
           select $1, t.id, p.site_id, t.company_id, t.agent_id, p.id, p.pump_no, 'queued', $3, $4,
                  now() + make_interval(secs => $5::float8)
             from pumps p join terminals t on t.id = p.terminal_id where p.id = $2
           returning id, kind, terminal_id, site_id, company_id, agent_id, pump_id`,
          [target === 1 ? 'pump_on' : 'pump_off', pumpId, by.userId, by.name, timings.queueTtlS],
        );
        const id = Number(inserted[0].id);
        await logEvents(q, [id], ['queued'], [`Requested by ${by.name}`], null);
        await q.changed([commandChange(inserted[0])]);
        return { ok: true, pump, command: (await byId(q, id))! } as const;
      });
    },

    /**
     * Queues a reboot unless one of the terminal's reboots is still queued or sent (within its deadline): then
     * nothing is queued and the pending one is answered. The terminal row is locked first, so two concurrent
     * requests (on any node) queue one reboot.
     */
    async queueReboot(terminalId: number, rebootType: RebootType, by: Requester): Promise<RebootResult> {
      return unitOfWork(database, async (q) => {
        const terminal = await q<Row<typeof terminals, 'terminal_no'>>(
          'select terminal_no from terminals where id = $1 for update',
          [terminalId],
        );
        if (!terminal[0]) return { ok: false, reason: 'missing' } as const;
        const pending = await q<Row<typeof commands, 'id'>>(
          `select id from commands
            where terminal_id = $1 and kind = 'reboot' and state in ${OPEN_STATES_SQL} and expires_at > now()
            order by id limit 1`,
          [terminalId],
        );
        if (pending[0]) {
          return { ok: false, reason: 'pending', terminalNo: terminal[0].terminal_no } as const;
        }
        const inserted = await q<Row<typeof commands, 'id'> & CommandPlace>(
          `insert into commands (kind, terminal_id, site_id, company_id, agent_id, reboot_type, state,
                                 requested_by, requested_by_name, expires_at)
           select 'reboot', t.id, t.site_id, t.company_id, t.agent_id, $2, 'queued', $3, $4,
                  now() + make_interval(secs => $5::float8)
             from terminals t where t.id = $1
           returning id, kind, terminal_id, site_id, company_id, agent_id, pump_id`,
          [terminalId, rebootType, by.userId, by.name, timings.queueTtlS],
        );
        const id = Number(inserted[0].id);
        await logEvents(q, [id], ['queued'], [`${rebootType} reboot requested by ${by.name}`], null);
        await q.changed([commandChange(inserted[0])]);
        return { ok: true, command: (await byId(q, id))! } as const;
      });
    },

    /**
     * One reboot per terminal of the target (docs/targets.md), each as `queueReboot` queues it, in one transaction
     * and a handful of statements whatever the target's size. The target's terminals are locked first (so a single
     * reboot requested meanwhile either comes before and the terminal is skipped, or waits); a terminal with a reboot
     * still queued or sent is left out and counted in `skipped`. Audited once, with the target and the command ids.
     */
    async queueTargetReboot(
      target: Target,
      rebootType: RebootType,
      by: Requester & { username: string; agentId: number },
    ): Promise<BulkRebootResult> {
      return unitOfWork(database, async (q) => {
        const p = new Params();
        const where = targetWhereSql(target, p);
        const locked = await q<{ id: number }>(
          `select t.id from terminals t where ${where} order by t.id for update`,
          p.values,
        );
        const ids = locked.map((r) => Number(r.id));
        const inserted = ids.length
          ? await q<{ id: number | string } & CommandPlace>(
              `insert into commands (kind, terminal_id, site_id, company_id, agent_id, reboot_type, state,
                                     requested_by, requested_by_name, expires_at)
               select 'reboot', t.id, t.site_id, t.company_id, t.agent_id, $2, 'queued', $3, $4,
                      now() + make_interval(secs => $5::float8)
                 from terminals t
                where t.id = any($1::int[])
                  and not exists (select 1 from commands c
                                   where c.terminal_id = t.id and c.kind = 'reboot' and c.state in ${OPEN_STATES_SQL}
                                     and c.expires_at > now())
                order by t.id
               returning id, kind, terminal_id, site_id, company_id, agent_id, pump_id`,
              [ids, rebootType, by.userId, by.name, timings.queueTtlS],
            )
          : [];
        inserted.sort((a, b) => Number(a.id) - Number(b.id));
        const commandIds = inserted.map((r) => Number(r.id));
        await logEvents(
          q,
          commandIds,
          commandIds.map(() => 'queued'),
          commandIds.map(() => `${rebootType} reboot requested by ${by.name} (bulk)`),
          null,
        );
        await q.changed(inserted.map(commandChange));
        const result = {
          commandIds,
          terminalIds: inserted.map((r) => Number(r.terminal_id)),
          skipped: ids.length - inserted.length,
        };
        await q.audit({
          userId: by.userId,
          username: by.username,
          agentId: by.agentId,
          action: 'reboot',
          entity: 'terminal',
          entityId: target.scope.kind === 'terminal' ? target.scope.id : null,
          before: null,
          after: {
            target,
            reboot_type: rebootType,
            count: commandIds.length,
            skipped: result.skipped,
            command_ids: commandIds,
          },
        });
        return result;
      });
    },

    /**
     * Hands a terminal its queued, unexpired commands, oldest first, and marks them sent. The conditional UPDATE
     * means two concurrent fetches never both receive the same command. A sent command's deadline becomes its
     * acknowledgement timeout. Only while `tokenHash` is still the terminal's device token: the token row is
     * share-locked first, so a rotation either commits before (null: nothing is handed out) or waits until after.
     */
    async takeQueued(terminalId: number, tokenHash: string): Promise<DeviceCommandRow[] | null> {
      return unitOfWork(database, async (q) => {
        const holder = await q(
          'select 1 from device_tokens where terminal_id = $1 and token_hash = $2 for share',
          [terminalId, tokenHash],
        );
        if (!holder.length) return null;
        const rows = await q<
          {
            id: number | string;
            pump_no: number | null;
            reboot_type: RebootType | null;
            payload: Record<string, unknown> | string | null;
            created_at: Date | string;
          } & CommandPlace
        >(
          // An install has its rollout's wave_wait_s to be acknowledged (its payload's ack_timeout_s).
          `update commands
              set state = 'sent', sent_at = now(), updated_at = now(),
                  expires_at = now() + make_interval(secs => case when kind = 'reboot' then $2::float8
                    when kind = 'install' then coalesce((payload->>'ack_timeout_s')::float8, $3::float8)
                    else $3::float8 end)
            where terminal_id = $1 and state = 'queued' and expires_at > now()
            returning id, kind, pump_no, reboot_type, payload, created_at, terminal_id, site_id, company_id, agent_id,
                      pump_id`,
          [terminalId, timings.rebootAckTimeoutS, timings.pumpAckTimeoutS],
        );
        rows.sort((a, b) => Number(a.id) - Number(b.id));
        await logEvents(
          q,
          rows.map((r) => Number(r.id)),
          rows.map(() => 'sent'),
          rows.map(() => 'Fetched by the terminal'),
          null,
        );
        await q.changed(rows.map(commandChange));
        return rows.map((r) => ({
          id: Number(r.id),
          kind: r.kind,
          pumpNo: r.pump_no,
          rebootType: r.reboot_type,
          payload: typeof r.payload === 'string' ? JSON.parse(r.payload) : r.payload,
          createdAt: new Date(r.created_at),
        }));
      });
    },

    /**
     * A device's acknowledgement. Only a queued or sent command changes (conditional UPDATE, so concurrent or
     * repeated acks apply once); a confirmed pump command records the device's state in last_synapse_status, a
     * failed one returns the requested status to it. Null when the command is not this terminal's.
     */
    async acknowledge(
      terminalId: number,
      commandId: number,
      result: 'ok' | 'failed',
      detail: string | null,
    ): Promise<{ state: CommandState; changed: Transition | null } | null> {
      return unitOfWork(database, async (q) => {
        const state: CommandState = result === 'ok' ? 'confirmed' : 'failed';
        const changed = await q<Row<typeof commands, 'id' | 'state'> & CommandPlace>(
          `update commands set state = $3, detail = $4, updated_at = now(), completed_at = now()
            where id = $1 and terminal_id = $2 and state in ${OPEN_STATES_SQL}
            returning id, kind, state, terminal_id, site_id, company_id, agent_id, pump_id`,
          [commandId, terminalId, state, detail],
        );
        const row = changed[0];
        if (!row) {
          const current = await q<Row<typeof commands, 'state'>>(
            'select state from commands where id = $1 and terminal_id = $2',
            [commandId, terminalId],
          );
          return current[0] ? { state: current[0].state, changed: null } : null;
        }
        await logEvents(
          q,
          [commandId],
          [state],
          [
            detail ??
              (state === 'confirmed' ? 'Confirmed by the terminal' : 'The terminal reported a failure'),
          ],
          null,
        );
        if (row.pump_id !== null) {
          const confirmed = state === 'confirmed' ? (row.kind === 'pump_on' ? 1 : 0) : null;
          await settlePumps(q, [{ id: row.pump_id, confirmed }]);
        }
        await q.changed([commandChange(row)]);
        return { state, changed: transitionOf({ ...row, state }) };
      });
    },

    /**
     * Applies deadlines as of `now`: a queued command not fetched in time expires, a sent one not acknowledged in
     * time times out. A pump whose command ended that way returns to its last confirmed status (it leaves pending).
     */
    async sweep(now: Date): Promise<Transition[]> {
      return unitOfWork(database, async (q) => {
        const rows = await q<Row<typeof commands, 'id' | 'state'> & CommandPlace>(
          `update commands
              set state = case when state = 'queued' then 'expired' else 'timed_out' end,
                  detail = case when state = 'queued' then 'Not fetched by the terminal in time'
                                else 'Not acknowledged by the terminal in time' end,
                  updated_at = $1, completed_at = $1
            where state in ${OPEN_STATES_SQL} and expires_at <= $1
            returning id, kind, state, terminal_id, site_id, company_id, agent_id, pump_id, detail`,
          [now],
        );
        if (!rows.length) return [];
        await logEvents(
          q,
          rows.map((r) => Number(r.id)),
          rows.map((r) => r.state),
          rows.map((r) =>
            r.state === 'expired'
              ? 'Not fetched by the terminal in time'
              : 'Not acknowledged by the terminal in time',
          ),
          now,
        );
        const pumps = rows.flatMap((r) => (r.pump_id === null ? [] : [{ id: r.pump_id, confirmed: null }]));
        await settlePumps(q, pumps, now);
        await q.changed(rows.map(commandChange));
        return rows.map(transitionOf);
      });
    },

    get: (id: number) => byId(database.query.bind(database) as QueryFn, id),

    /** Newest first; `before` is a command id (the last one seen). */
    async list(
      filter: { pumpId?: number; terminalId?: number },
      opts: { limit: number; before?: number; kinds?: CommandKind[] },
    ): Promise<Command[]> {
      const where: string[] = [];
      const params: unknown[] = [];
      if (filter.pumpId !== undefined) {
        params.push(filter.pumpId);
        where.push(`c.pump_id = $${params.length}`);
      }
      if (filter.terminalId !== undefined) {
        params.push(filter.terminalId);
        where.push(`c.terminal_id = $${params.length}`);
      }
      if (opts.before !== undefined) {
        params.push(opts.before);
        where.push(`c.id < $${params.length}`);
      }
      if (opts.kinds?.length) {
        params.push(opts.kinds);
        where.push(`c.kind = any($${params.length}::text[])`);
      }
      params.push(opts.limit);
      const rows = await database.query<CommandDbRow>(
        `${commandSelect} where ${where.join(' and ') || 'true'} order by c.id desc limit $${params.length}`,
        params,
      );
      return rows.map(toCommand);
    },
  };
}
export type CommandRepository = ReturnType<typeof createCommandRepository>;
