import { z } from 'zod';
import { COMMAND_STATES } from './commands.ts';
import { ActionResultSchema, IsoDateTimeSchema } from './common.ts';

export const PumpSchema = z.object({
  id: z.number().int(),
  pump_no: z.number().int(),
  site: z.string().describe('Site name'),
  site_id: z.number().int().optional(),
  status: z.number().int().min(0).max(1).describe('0 off, 1 on (requested state)'),
  last_synapse_status: z.number().int().min(0).max(1).describe('Last state confirmed by the device'),
});
export type Pump = z.infer<typeof PumpSchema>;

export const TurnPumpResponseSchema = ActionResultSchema.extend({
  pump: PumpSchema.optional(),
  command_id: z.number().int().optional(),
});
export type TurnPumpResponse = z.infer<typeof TurnPumpResponseSchema>;

export const PumpStatusEntrySchema = z.object({
  created_at: IsoDateTimeSchema,
  text: z.string(),
  status: z.number().int().describe('4000 means normal'),
});
export type PumpStatusEntry = z.infer<typeof PumpStatusEntrySchema>;

/** Keyed by pump key (pump number), each newest first. */
export const PumpStatusLogSchema = z.record(z.string(), z.array(PumpStatusEntrySchema));
export type PumpStatusLog = z.infer<typeof PumpStatusLogSchema>;

export const PumpActivationLogEntrySchema = z.object({
  id: z.number().int(),
  pump_id: z.number().int(),
  pump_no: z.number().int(),
  kind: z.enum(['pump_on', 'pump_off']),
  state: z.enum(COMMAND_STATES),
  requested_by: z.string().nullable(),
  created_at: IsoDateTimeSchema,
  completed_at: IsoDateTimeSchema.nullable(),
  cursor: z.string().optional(),
});

/** The status code of a pump working normally; any other code is abnormal. */
export const PUMP_STATUS_NORMAL = 4000;

/** Pump status codes a device reports, with their texts (docs/event-types.md, "Pump status codes"). */
export const PUMP_STATUS_TEXTS: Readonly<Record<number, string>> = {
  4000: 'Normal operation',
  4001: 'Nozzle left out of holster',
  4002: 'Flow meter pulse error',
  4003: 'Emergency stop pressed',
  4004: 'Communication with pump lost',
  4005: 'Fuel leak sensor triggered',
};

export const PUMP_STATUS_CODES: readonly number[] = Object.keys(PUMP_STATUS_TEXTS).map(Number);
export const ABNORMAL_PUMP_STATUS_CODES: readonly number[] = PUMP_STATUS_CODES.filter(
  (c) => c !== PUMP_STATUS_NORMAL,
);

/** A missing code is not normal: nothing says the pump is fine. */
export function isPumpStatusNormal(code: number | null | undefined): boolean {
  return code === PUMP_STATUS_NORMAL;
}

/** The text of a status code; a code the table does not know reads `Status {code}`. */
export function pumpStatusText(code: number): string {
  return PUMP_STATUS_TEXTS[code] ?? `Status ${code}`;
}
