import { z } from 'zod';
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
  state: z.string(),
  requested_by: z.string().nullable(),
  created_at: IsoDateTimeSchema,
  completed_at: IsoDateTimeSchema.nullable(),
  cursor: z.string().optional(),
});
