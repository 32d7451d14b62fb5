import { z } from 'zod';

export const TICKET_ERRORS = { noSubject: 'ERROR_NO_SUBJECT', noBody: 'ERROR_NO_BODY' } as const;

/** Subject is checked first, then body. */
export function ticketError(
  subject: string | null | undefined,
  body: string | null | undefined,
): string | null {
  if (!subject?.trim()) return TICKET_ERRORS.noSubject;
  if (!body?.trim()) return TICKET_ERRORS.noBody;
  return null;
}

export const TicketRequestSchema = z.object({
  subject: z.string().max(200, 'subject must be at most 200 characters').optional(),
  body: z.string().max(20_000, 'body must be at most 20000 characters').optional(),
});
export type TicketRequest = z.infer<typeof TicketRequestSchema>;

export const TicketResponseSchema = z.object({
  error: z.boolean(),
  error_text: z.string(),
  ticket_id: z.number().int().optional(),
});
export type TicketResponse = z.infer<typeof TicketResponseSchema>;

/** A stored ticket as its author reads it back (GET /api/zendesk/ticket/{id}/). */
export const TicketSchema = z.object({
  id: z.number().int(),
  subject: z.string(),
  body: z.string(),
  created_at: z.string().describe('ISO 8601, UTC'),
  forward_state: z
    .enum(['stored', 'pending', 'forwarded', 'failed'])
    .describe('stored: no help desk configured; pending: on its way to Zendesk; forwarded; failed: gave up'),
});
export type Ticket = z.infer<typeof TicketSchema>;
