import { z } from 'zod';
import { RULE_EVENT_TYPE } from './alert-rules.ts';
import { softwareVersionField } from './targets.ts';
import { CommandStateSchema } from './terminals.ts';

const MIN_AT = Date.parse('2000-01-01T00:00:00Z');
const MAX_AT = Date.parse('2100-01-01T00:00:00Z');

/** "x is required" when missing, else `message`. */
const need = (name: string, message: string) => (iss: { input?: unknown }) =>
  iss.input === undefined ? `${name} is required` : message;

/** A number within [min, max]; every failure names the field and its range. */
const num = (name: string, min: number, max: number, opts: { int?: boolean } = {}) => {
  const message = `${name} must be ${opts.int ? 'a whole number from ' : ''}${min} to ${max}`;
  const base = z.number({ error: need(name, message) });
  return (opts.int ? base.int(message) : base).min(min, message).max(max, message);
};

/** An ISO 8601 time with offset, within 2000–2099 (a device clock outside that is wrong, not history). */
const timestamp = (name: string) => {
  const message = `${name} must be an ISO 8601 date-time with offset, e.g. 2024-05-01T12:00:00Z`;
  return z
    .string({ error: need(name, message) })
    .pipe(z.iso.datetime({ offset: true, error: message }))
    .refine((v) => {
      const t = Date.parse(v);
      return t >= MIN_AT && t < MAX_AT;
    }, `${name} must be between 2000 and 2099`);
};
const at = timestamp('at').optional().describe('When it happened (default: now)');

export const TelemetryPointSchema = z
  .object({
    at,
    battery_life: num('battery_life', 0, 100).optional().describe('Percent'),
    flash_left: num('flash_left', 0, 100).optional().describe('Percent of the flash drive left'),
    temperature_main_board: num('temperature_main_board', -60, 150).optional().describe('°C'),
    temperature_inside_cabinet: num('temperature_inside_cabinet', -60, 150).optional().describe('°C'),
    humidity_inside_cabinet: num('humidity_inside_cabinet', 0, 100).optional().describe('Percent'),
    lat: num('lat', -90, 90).optional(),
    lng: num('lng', -180, 180).optional(),
    software_version: softwareVersionField
      .optional()
      .describe('The software version the terminal runs now (text, at most 64 characters)'),
  })
  .strict()
  .refine(
    (p) => Object.keys(p).some((k) => k !== 'at'),
    'a telemetry point needs at least one reading or a software_version',
  );
export type TelemetryPoint = z.infer<typeof TelemetryPointSchema>;

export const DeviceEventSchema = z
  .object({
    event_type: num('event_type', 1, 999, { int: true }).describe(
      'See the event catalogue (docs/event-types.md, EVENT_CATALOGUE in events.ts)',
    ),
    text: z
      .string({ error: 'text must be a string' })
      .trim()
      .min(1, 'text is required')
      .max(500, 'text must be at most 500 characters')
      .optional()
      .describe(
        "'{Event name}: {details}'; the alert's issue is the part before the first colon. Required unless clear",
      ),
    clear: z
      .literal(true, { error: 'clear must be true (or left out)' })
      .optional()
      .describe("true: the condition is over; clears this terminal's active alerts of this event_type"),
    at,
  })
  .strict()
  .superRefine((e, ctx) => {
    if (e.event_type === RULE_EVENT_TYPE)
      ctx.addIssue({
        code: 'custom',
        path: ['event_type'],
        message: `event_type ${RULE_EVENT_TYPE} is reserved for alert rules`,
      });
    if (!e.clear && e.text === undefined)
      ctx.addIssue({ code: 'custom', path: ['text'], message: 'text is required' });
  });
export type DeviceEvent = z.infer<typeof DeviceEventSchema>;

export const DeviceShockSchema = z.object({ reading: num('reading', 0, 1000), at }).strict();
export type DeviceShock = z.infer<typeof DeviceShockSchema>;

export const DeviceTransactionSchema = z
  .object({
    at: timestamp('at'),
    volume_l: num('volume_l', 0, 100_000).describe('Litres'),
    amount: num('amount', 0, 10_000_000).describe(
      'Money; zero-value and under-one-litre are derived from these',
    ),
  })
  .strict();
export type DeviceTransaction = z.infer<typeof DeviceTransactionSchema>;

export const DevicePumpStatusSchema = z
  .object({
    pump_no: num('pump_no', 1, 99, { int: true }),
    status: z
      .union([z.literal(0), z.literal(1)], { error: need('status', 'status must be 0 (off) or 1 (on)') })
      .describe('What the pump reports: sets last_synapse_status'),
    code: num('code', 0, 999_999, { int: true }).describe('4000 means normal'),
    text: z
      .string({ error: need('text', 'text must be a string') })
      .max(500, 'text must be at most 500 characters'),
    at,
  })
  .strict();
export type DevicePumpStatus = z.infer<typeof DevicePumpStatusSchema>;

/** Each write accepts one object or an array (a batch). */
export const MAX_BATCH = 10_000;
export function batchOf<T extends z.ZodType>(item: T) {
  return z.union([item, z.array(item).min(1).max(MAX_BATCH)]);
}

/** What a device learns about itself: its terminal and the pumps whose commands it carries. */
export const DeviceInfoSchema = z.object({
  terminal: z.object({
    id: z.number().int(),
    terminal_id: z.string(),
    site_id: z.number().int(),
    site: z.string(),
  }),
  pumps: z.array(
    z.object({
      pump_no: z.number().int(),
      status: z.number().int().describe('Requested: 0 off, 1 on'),
      last_synapse_status: z.number().int().describe('Last state the device confirmed'),
    }),
  ),
  connectivity_timeout: z
    .number()
    .describe('Seconds of silence after which the server marks the terminal offline'),
});
export type DeviceInfo = z.infer<typeof DeviceInfoSchema>;

export const DeviceCommandSchema = z.object({
  id: z.number().int(),
  kind: z.enum(['pump_on', 'pump_off', 'reboot', 'install']),
  pump_no: z.number().int().optional(),
  reboot_type: z.enum(['software', 'full']).optional(),
  software_id: z.number().int().optional().describe('install: the package to download'),
  version: z.string().optional().describe('install: the version to report once it runs'),
  sha256: z.string().optional().describe('install: hex digest the download must have'),
  size: z.number().int().optional().describe('install: bytes'),
  url: z.string().optional().describe('install: path of the download (device token; Range requests resume)'),
  created_at: z.string(),
});
export type DeviceCommand = z.infer<typeof DeviceCommandSchema>;

export const CommandsQuerySchema = z.object({
  wait: z.coerce
    .number({ error: 'wait must be a whole number of seconds from 0 to 30' })
    .int('wait must be a whole number of seconds from 0 to 30')
    .min(0, 'wait must be a whole number of seconds from 0 to 30')
    .max(30, 'wait must be a whole number of seconds from 0 to 30')
    .default(0)
    .describe('Long-poll: wait up to this many seconds for a command when none is queued'),
});

export const CommandAckSchema = z
  .object({
    result: z.enum(['ok', 'failed'], { error: "result must be 'ok' or 'failed'" }),
    detail: z
      .string({ error: 'detail must be a string' })
      .max(500, 'detail must be at most 500 characters')
      .optional(),
  })
  .strict();
export type CommandAck = z.infer<typeof CommandAckSchema>;

/** The answer to an ack: the command's state after it; a repeated ack gets the same answer and changes nothing. */
export const CommandAckResponseSchema = z.object({
  id: z.number().int(),
  state: CommandStateSchema,
});
export type CommandAckResponse = z.infer<typeof CommandAckResponseSchema>;

export const AcceptedSchema = z.object({ accepted: z.number().int().describe('How many items were stored') });
