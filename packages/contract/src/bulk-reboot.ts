import { z } from 'zod';
import { TargetSchema } from './targets.ts';
import { RebootTypeSchema } from './terminals.ts';

// Apart from terminals.ts, so the console's terminal and command reads do not carry the target schema.

/** `POST /api/terminals/reboot/`: one reboot per terminal of a target (docs/targets.md). */
export const BulkRebootRequestSchema = z
  .object({ target: TargetSchema, reboot_type: RebootTypeSchema })
  .strict();
export type BulkRebootRequest = z.infer<typeof BulkRebootRequestSchema>;
export const BulkRebootAcceptedSchema = z.object({
  count: z.number().int().describe('Reboots queued'),
  skipped: z
    .number()
    .int()
    .describe('Terminals of the target left out: a reboot of theirs was already pending'),
  command_ids: z.array(z.number().int()).describe('The queued reboot commands (GET /api/command/{id}/)'),
});
export type BulkRebootAccepted = z.infer<typeof BulkRebootAcceptedSchema>;
