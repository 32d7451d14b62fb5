import { type TicketRequest, type TicketResponse, TicketResponseSchema } from '@forecourt/contract/tickets';
import { api, isApiError } from '../../../lib/api-client.ts';

/** POST /api/zendesk/ticket/; a missing subject or body answers `{error:true, error_text}` (400). */
export async function createTicket(ticket: TicketRequest): Promise<TicketResponse> {
  try {
    return await api.post('/api/zendesk/ticket/', ticket, { schema: TicketResponseSchema, idempotent: true });
  } catch (error) {
    const body = isApiError(error) ? (error.body as Partial<TicketResponse> | null) : null;
    if (body && body.error === true && typeof body.error_text === 'string') {
      return { error: true, error_text: body.error_text };
    }
    throw error;
  }
}
