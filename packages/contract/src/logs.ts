import { z } from 'zod';
import { COMMAND_STATES } from './commands.ts';
import { BooleanQuerySchema, IsoDateTimeSchema, LimitSchema, LogQuerySchema } from './common.ts';
import {
  AcknowledgedFilterSchema,
  AlertSchema,
  AlertStateFilterSchema,
  EventTypeListSchema,
  RuleIdFilterSchema,
  SilencedFilterSchema,
} from './fleet.ts';
import { PumpActivationLogEntrySchema, PumpStatusEntrySchema } from './pumps.ts';
import { CommandSchema, CommandStateSchema, ShockSchema } from './terminals.ts';

/**
 * Log screens (docs/api-logs.md): newest first, `limit_to` rows per page, `before` = the `cursor` of the last
 * row seen; the answer also names the next cursor in `X-Next-Cursor` and a `Link: <...>; rel="next"` header
 * while more rows may follow. `?format=csv` or `Accept: text/csv` answers the same page as CSV.
 */
const cursor = z.string().describe('Pass as `before` to get the rows after this one');

const timezone = z
  .string()
  .describe("IANA time zone of the row's site (show times in the site's local time)");

const terminalFilter = z
  .string()
  .max(50)
  .optional()
  .describe('Only this terminal: its number (terminal_id) or its numeric id');

export const AlertLogQuerySchema = LogQuerySchema.extend({
  event_type: EventTypeListSchema.optional().describe('Repeatable event type filter'),
  terminal: terminalFilter,
  state: AlertStateFilterSchema,
  acknowledged: AcknowledgedFilterSchema,
  silenced: SilencedFilterSchema,
  rule_id: RuleIdFilterSchema,
});
export type AlertLogQuery = z.infer<typeof AlertLogQuerySchema>;
export const AlertLogEntrySchema = AlertSchema.extend({ cursor, terminal_id: z.number().int(), timezone });

export const ConnectivityLogQuerySchema = LogQuerySchema.extend({
  status: z.enum(['on', 'off'], { error: "status must be 'on' or 'off'" }).optional(),
  offline: BooleanQuerySchema.optional().describe('Same as status=off'),
  terminal: terminalFilter,
});
export type ConnectivityLogQuery = z.infer<typeof ConnectivityLogQuerySchema>;
/** One on/off change of a terminal. */
export const ConnectivityLogEntrySchema = z.object({
  id: z.number().int(),
  cursor,
  site_id: z.number().int(),
  title: z.string().describe('Site title'),
  number: z.string().describe('Terminal number'),
  terminal_id: z.number().int(),
  status: z.enum(['on', 'off']),
  date: IsoDateTimeSchema,
  customer_name: z.string().describe('Company name'),
  timezone,
});
export type ConnectivityLogEntry = z.infer<typeof ConnectivityLogEntrySchema>;

const commandStateList = z
  .union([CommandStateSchema, z.array(CommandStateSchema).max(10)], {
    error: `state must be ${COMMAND_STATES.slice(0, -1).join(', ')} or ${COMMAND_STATES.at(-1)}`,
  })
  .transform((v) => (Array.isArray(v) ? v : [v]));

export const CommandLogQuerySchema = LogQuerySchema.extend({
  state: commandStateList.optional().describe('Repeatable command state filter'),
  terminal: terminalFilter,
  pump: z.coerce
    .number({ error: 'pump must be a pump number' })
    .int('pump must be a pump number')
    .min(1, 'pump must be a pump number')
    .max(999, 'pump must be a pump number')
    .optional()
    .describe('Only this pump number (pump activation log)'),
});
export type CommandLogQuery = z.infer<typeof CommandLogQuerySchema>;

/** A reboot with its state history (queued → sent → confirmed | failed | timed_out | expired). */
export const RebootLogEntrySchema = CommandSchema.extend({
  cursor,
  site_title: z.string(),
  status: z
    .string()
    .describe('The state as shown: queued, sent, done, failed, timed out or expired (commandStatusText)'),
  timezone,
});
export type RebootLogEntry = z.infer<typeof RebootLogEntrySchema>;

export const PumpActivationLogRowSchema = PumpActivationLogEntrySchema.extend({
  cursor,
  site: z.string().describe('Site title'),
  site_id: z.number().int(),
  terminal_id: z.number().int(),
  terminal_number: z.string(),
  detail: z.string().nullable(),
  timezone,
});
export type PumpActivationLogRow = z.infer<typeof PumpActivationLogRowSchema>;

export const PumpStatusLogQuerySchema = LogQuerySchema.extend({
  pump: CommandLogQuerySchema.shape.pump,
  abnormal: BooleanQuerySchema.optional().describe('Only entries whose status is not 4000'),
});
export const PumpStatusLogRowSchema = PumpStatusEntrySchema.extend({
  id: z.number().int(),
  cursor,
  pump_id: z.number().int(),
  pump_no: z.number().int(),
  reported_status: z.number().int().describe('What the pump reported: 0 off, 1 on'),
  timezone,
});
export type PumpStatusLogRow = z.infer<typeof PumpStatusLogRowSchema>;

/** Per pump: `limit_to` entries of each pump (default 20). */
export const PumpStatusQuerySchema = z.object({
  limit_to: LimitSchema.default(20).describe('Entries per pump (default 20, max 1000)'),
});

export const ShockLogQuerySchema = LogQuerySchema.extend({
  terminal: terminalFilter,
  min: z.coerce
    .number({ error: 'min must be a number' })
    .min(0, 'min must be 0 or more')
    .max(1_000_000, 'min is too large')
    .optional()
    .describe('Only readings at or above this level'),
});
export const ShockLogEntrySchema = ShockSchema.extend({
  id: z.number().int(),
  cursor,
  site_title: z.string(),
  site_number: z.string(),
  timezone,
});
export type ShockLogEntry = z.infer<typeof ShockLogEntrySchema>;

export const TelemetryLogQuerySchema = LogQuerySchema.extend({ terminal: terminalFilter });
export type TelemetryLogQuery = z.infer<typeof TelemetryLogQuerySchema>;
const logTerminal = z.object({ terminal_id: z.string(), id: z.number().int() });
const telemetryBase = {
  id: z.number().int(),
  cursor,
  created_at: IsoDateTimeSchema,
  terminal: logTerminal,
  customer: z.string().describe('Site title'),
  site_number: z.string(),
  timezone,
};
export const BatteryLogEntrySchema = z.object({ ...telemetryBase, life: z.number() });
export const FlashDriveLogEntrySchema = z.object({ ...telemetryBase, left: z.number() });
export const EnvironmentLogEntrySchema = z.object({
  ...telemetryBase,
  temperature_main_board: z.number().nullable(),
  temperature_inside_cabinet: z.number().nullable(),
  humidity_inside_cabinet: z.number().nullable(),
});

/** Site terminal readings (battery, environment, flash drive): the latest per terminal. */
export const TerminalReadingsQuerySchema = z.object({
  latest: z
    .union([z.boolean(), z.enum(['true', 'false', '1', '0'])], { error: "latest must be 'true' or 'false'" })
    .optional()
    .describe('Accepted for older clients; the answer is always the latest reading per terminal'),
  limit_to: LimitSchema,
});
