import { z } from 'zod';
import { COMMAND_STATES } from './commands.ts';
import { IsoDateTimeSchema, LimitSchema } from './common.ts';

const terminalNo = z.object({ terminal_id: z.string() });

export const BatterySchema = z.object({
  life: z.number().describe('Percent'),
  terminal: terminalNo.extend({ id: z.number().int().optional() }),
  customer: z.string().optional().describe('Site title'),
  site_number: z.string().optional(),
  created_at: IsoDateTimeSchema.optional(),
});
export type Battery = z.infer<typeof BatterySchema>;

export const FlashDriveSchema = z.object({
  left: z.number().describe('Percent left'),
  terminal: terminalNo.extend({ id: z.number().int().optional() }),
  customer: z.string().optional(),
  site_number: z.string().optional(),
  created_at: IsoDateTimeSchema.optional(),
});
export type FlashDrive = z.infer<typeof FlashDriveSchema>;

export const EnvironmentSchema = z.object({
  temperature_main_board: z.number().nullable(),
  temperature_inside_cabinet: z.number().nullable(),
  humidity_inside_cabinet: z.number().nullable(),
  terminal: terminalNo.extend({ id: z.number().int().optional() }),
  created_at: IsoDateTimeSchema.optional(),
});
export type Environment = z.infer<typeof EnvironmentSchema>;

export const ShockSchema = z.object({
  id: z.number().int().optional(),
  reading: z.number(),
  created_at: IsoDateTimeSchema,
  terminal: z.object({
    site: z.number().int().describe('Site id'),
    card_acceptor_name: z.string().describe("'{site name}/{city}'"),
    terminal_id: z.string(),
    id: z.number().int().optional(),
  }),
  company_id: z.number().int().optional(),
});
export type Shock = z.infer<typeof ShockSchema>;

export const RebootTypeSchema = z.enum(['software', 'full'], {
  error: "reboot_type must be 'software' or 'full'",
});
export type RebootType = z.infer<typeof RebootTypeSchema>;
export const RebootRequestSchema = z.object({ reboot_type: RebootTypeSchema });

export const CommandStateSchema = z.enum(COMMAND_STATES);
export type CommandState = z.infer<typeof CommandStateSchema>;

export const CommandSchema = z.object({
  id: z.number().int(),
  kind: z.enum(['pump_on', 'pump_off', 'reboot', 'install']),
  terminal_id: z.number().int(),
  terminal_number: z.string(),
  site_id: z.number().int(),
  pump_id: z.number().int().nullable(),
  pump_no: z.number().int().nullable(),
  reboot_type: RebootTypeSchema.nullable(),
  state: CommandStateSchema,
  requested_by: z.string().nullable().describe('Name of the user who asked'),
  requested_by_id: z.number().int().nullable().optional().describe('Id of the user who asked'),
  created_at: IsoDateTimeSchema,
  updated_at: IsoDateTimeSchema,
  sent_at: IsoDateTimeSchema.nullable().optional().describe('When the device fetched it'),
  completed_at: IsoDateTimeSchema.nullable().optional().describe('When it reached a final state'),
  expires_at: IsoDateTimeSchema.describe(
    'Queued: expires if not fetched by then; sent: times out if not acknowledged by then',
  ),
  detail: z.string().nullable(),
  history: z.array(
    z.object({ state: CommandStateSchema, at: IsoDateTimeSchema, detail: z.string().nullable() }),
  ),
});
export type Command = z.infer<typeof CommandSchema>;

export const RebootAcceptedSchema = z.object({
  error: z.boolean(),
  error_text: z.string(),
  command: CommandSchema,
});

export const CommandKindSchema = z.enum(['pump_on', 'pump_off', 'reboot', 'install']);
export type CommandKind = z.infer<typeof CommandKindSchema>;

const commandKindList = z
  .union([CommandKindSchema, z.array(CommandKindSchema)], {
    error: "kind must be 'pump_on', 'pump_off', 'reboot' or 'install'",
  })
  .transform((v) => (Array.isArray(v) ? v : [v]));

/** The command timeline of a pump or terminal: newest first; `before` is the id of the last command seen. */
export const ListCommandsQuerySchema = z.object({
  limit_to: LimitSchema,
  before: z.coerce
    .number({ error: 'before must be a command id' })
    .int('before must be a command id')
    .positive('before must be a command id')
    .optional()
    .describe('Only commands older than this command id'),
  kind: commandKindList.optional().describe('Repeatable: pump_on, pump_off, reboot, install'),
});
export type ListCommandsQuery = z.infer<typeof ListCommandsQuerySchema>;

export const CommandListSchema = z.array(CommandSchema);

export const DeviceTokenResponseSchema = z.object({
  token: z.string().describe('Shown once; stored only hashed'),
});
