import { COMMAND_STATES, isFinalCommandState } from '@forecourt/contract/commands';
import type { Command, CommandState } from '@forecourt/contract/terminals';
import type { commands } from '../db/schema/commands.ts';
import type { sites, terminals } from '../db/schema/org.ts';
import { iso } from './read-scope.ts';
import type { Row, SqlRow } from './rows.ts';

/** A row of `commandSelect`: the command, its terminal and site, and its state history. */
export type CommandDbRow = Row<
  typeof commands,
  | 'id'
  | 'kind'
  | 'terminal_id'
  | 'site_id'
  | 'pump_id'
  | 'pump_no'
  | 'reboot_type'
  | 'state'
  | 'requested_by'
  | 'requested_by_name'
  | 'detail'
  | 'created_at'
  | 'updated_at'
  | 'sent_at'
  | 'completed_at'
  | 'expires_at'
> &
  Row<typeof terminals, 'terminal_no'> &
  Row<typeof sites, 'timezone'> & {
    site_title: SqlRow<typeof sites>['title'];
    history: Array<{ state: CommandState; at: string; detail: string | null }> | string | null;
  };

/**
 * The one read of commands, shared by the command timelines (command-repository) and the reboot and pump
 * activation logs (log-repository): append `where ...` on `c` (commands), `t` (terminals) and `s` (sites).
 */
export const commandSelect = `
  select c.id, c.kind, c.terminal_id, t.terminal_no, c.site_id, s.title as site_title, s.timezone, c.pump_id,
         c.pump_no, c.reboot_type, c.state, c.requested_by, c.requested_by_name, c.detail, c.created_at,
         c.updated_at, c.sent_at, c.completed_at, c.expires_at,
         coalesce((select json_agg(json_build_object('state', e.state, 'at', e.at, 'detail', e.detail) order by e.id)
                     from command_events e where e.command_id = c.id), '[]'::json) as history
    from commands c
    join terminals t on t.id = c.terminal_id
    join sites s on s.id = c.site_id`;

/** The public command shape (contract `Command`) of a `commandSelect` row. */
export function toCommand(r: CommandDbRow): Command {
  const history = typeof r.history === 'string' ? JSON.parse(r.history) : (r.history ?? []);
  return {
    id: Number(r.id),
    kind: r.kind,
    terminal_id: r.terminal_id,
    terminal_number: r.terminal_no,
    site_id: r.site_id,
    pump_id: r.pump_id,
    pump_no: r.pump_no,
    reboot_type: r.reboot_type,
    state: r.state,
    requested_by: r.requested_by_name,
    requested_by_id: r.requested_by,
    created_at: iso(r.created_at)!,
    updated_at: iso(r.updated_at)!,
    sent_at: iso(r.sent_at),
    completed_at: iso(r.completed_at),
    expires_at: iso(r.expires_at)!,
    detail: r.detail,
    history: (history as Array<{ state: CommandState; at: string; detail: string | null }>).map((h) => ({
      state: h.state,
      at: iso(h.at)!,
      detail: h.detail ?? null,
    })),
  };
}
/**
 * The states a command can still leave, from the contract's state machine (`@forecourt/contract/commands`): the
 * `where` of every transition. A SQL list of constant names.
 */
export const OPEN_STATES_SQL = `(${COMMAND_STATES.filter((s) => !isFinalCommandState(s))
  .map((s) => `'${s}'`)
  .join(', ')})`;
