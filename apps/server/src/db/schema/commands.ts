import type { CommandKind, CommandState, RebootType } from '@forecourt/contract/terminals';
import { bigserial, index, integer, jsonb, pgTable, text } from 'drizzle-orm/pg-core';
import { ts } from './columns.ts';

/** A pump or reboot command: queued → sent → confirmed | failed | timed_out | expired. */
export const commands = pgTable(
  'commands',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    kind: text('kind').$type<CommandKind>().notNull(),
    terminalId: integer('terminal_id').notNull(),
    siteId: integer('site_id').notNull(),
    companyId: integer('company_id').notNull(),
    agentId: integer('agent_id').notNull(),
    pumpId: integer('pump_id'),
    pumpNo: integer('pump_no'),
    rebootType: text('reboot_type').$type<RebootType>(),
    state: text('state').$type<CommandState>().notNull().default('queued'),
    requestedBy: integer('requested_by'),
    requestedByName: text('requested_by_name'),
    detail: text('detail'),
    payload: jsonb('payload'),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
    sentAt: ts('sent_at'),
    completedAt: ts('completed_at'),
    /** A queued command not fetched by then expires; a sent one not acknowledged by then times out. */
    expiresAt: ts('expires_at').notNull(),
  },
  (t) => [
    index('commands_terminal_state_idx').on(t.terminalId, t.state),
    index('commands_site_idx').on(t.siteId, t.id.desc()),
    index('commands_company_idx').on(t.companyId, t.id.desc()),
    index('commands_agent_idx').on(t.agentId, t.id.desc()),
    index('commands_pump_idx').on(t.pumpId, t.id.desc()),
    index('commands_state_expires_idx').on(t.state, t.expiresAt),
  ],
);

export const commandEvents = pgTable(
  'command_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    commandId: integer('command_id').notNull(),
    state: text('state').notNull(),
    detail: text('detail'),
    at: ts('at').notNull().defaultNow(),
  },
  (t) => [index('command_events_command_idx').on(t.commandId, t.id)],
);
