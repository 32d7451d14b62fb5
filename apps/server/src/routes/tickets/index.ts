import { ErrorBodySchema } from '@forecourt/contract/common';
import {
  TICKET_ERRORS,
  TicketRequestSchema,
  TicketResponseSchema,
  TicketSchema,
  ticketError,
} from '@forecourt/contract/tickets';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { badRequest, forbidden, notFound } from '../../lib/errors.ts';
import { IdPathSchema } from '../../lib/route-schemas.ts';
import { IDEMPOTENCY_DESCRIPTION } from '../../plugins/idempotency.ts';
import { parseId } from '../../plugins/scope.ts';
import { createTicketService } from '../../services/tickets.ts';
import { kickTicketForwarder, zendeskConfig } from '../../services/zendesk.ts';

const MISSING: Record<string, string> = {
  [TICKET_ERRORS.noSubject]: 'subject: Subject is required.',
  [TICKET_ERRORS.noBody]: 'body: Body is required.',
};

/** Support tickets: stored, then forwarded to Zendesk in the background when ZENDESK_* is set. */
export async function ticketRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tickets = createTicketService(app.repos);

  r.post(
    '/api/zendesk/ticket/',
    {
      onRequest: app.authenticate,
      preHandler: app.idempotent,
      attachValidation: true,
      schema: {
        tags: ['tickets'],
        summary: 'Open a support ticket',
        description:
          'Stores the ticket and, when ZENDESK_* is configured, forwards it to Zendesk in the background (retried on failure). ' +
          'A missing subject answers 400 with error_text ERROR_NO_SUBJECT, then a missing body ERROR_NO_BODY.' +
          IDEMPOTENCY_DESCRIPTION,
        security: [{ jwt: [] }],
        body: TicketRequestSchema,
        response: { 200: TicketResponseSchema, 400: ErrorBodySchema, 401: ErrorBodySchema },
      },
    },
    async (request) => {
      const raw = (request.body ?? {}) as Record<string, unknown>;
      const subject = typeof raw.subject === 'string' ? raw.subject : undefined;
      const body = typeof raw.body === 'string' ? raw.body : undefined;
      const missing = ticketError(
        raw.subject === undefined || raw.subject === null ? undefined : (subject ?? 'x'),
        raw.body === undefined || raw.body === null ? undefined : (body ?? 'x'),
      );
      if (missing) throw badRequest(MISSING[missing], { error: true, error_text: missing });
      if (request.validationError) {
        const errors = (
          request.validationError.validation as Array<{ instancePath?: string; message?: string }>
        ).map((v) => {
          const field =
            String(v.instancePath ?? '')
              .replace(/^\//, '')
              .replace(/\//g, '.') || 'body';
          return `${field}: ${v.message ?? 'is invalid'}`;
        });
        throw badRequest(errors, { error: true, error_text: errors[0] });
      }
      const forward = zendeskConfig(app.config) !== null;
      const ticketId = await tickets.open({
        userId: request.principal!.userId,
        subject: subject!.trim(),
        body: body!,
        forward,
      });
      if (forward) kickTicketForwarder(app);
      return { error: false, error_text: '', ticket_id: ticketId };
    },
  );

  r.get(
    '/api/zendesk/ticket/:id/',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['tickets'],
        summary: 'One ticket of the caller, as stored',
        description: "Only the ticket's author reads it: another user's ticket is 403, an unknown id 404.",
        security: [{ jwt: [] }],
        params: IdPathSchema,
        response: { 200: TicketSchema, 401: ErrorBodySchema, 403: ErrorBodySchema, 404: ErrorBodySchema },
      },
    },
    async (request) => {
      const id = parseId(request.params.id);
      const ticket = id === null ? null : await app.repos.tickets.get(id);
      if (!ticket) throw notFound(`No ticket with id ${request.params.id}.`);
      if (ticket.userId !== request.principal!.userId)
        throw forbidden('This ticket belongs to another user.');
      return {
        id: ticket.id,
        subject: ticket.subject,
        body: ticket.body,
        created_at: new Date(ticket.createdAt).toISOString(),
        forward_state: ticket.forwardState as 'stored' | 'pending' | 'forwarded' | 'failed',
      };
    },
  );
}
