import { SiteStatusSchema, TerminalSchema } from '@forecourt/contract/fleet';
import {
  type Pump,
  PumpSchema,
  type TurnPumpResponse,
  TurnPumpResponseSchema,
} from '@forecourt/contract/pumps';
import {
  type Command,
  CommandListSchema,
  CommandSchema,
  type CommandState,
  RebootAcceptedSchema,
  type RebootType,
} from '@forecourt/contract/terminals';
import { type TicketRequest, type TicketResponse, TicketResponseSchema } from '@forecourt/contract/tickets';
import { queryOptions } from '@tanstack/react-query';
import { z } from 'zod';
import { ApiError, api, isApiError } from '../api-client.ts';
import { liveQuery } from './live.ts';

/** The action calls of the description (pumps, reboot, tickets) and the command timelines behind them. */

export const PumpListSchema = z.array(PumpSchema);
const SiteListSchema = z.array(SiteStatusSchema);
const TerminalListSchema = z.array(TerminalSchema);

/** While a command is not final, its state is re-read this often (ms). */
export const COMMAND_WATCH_MS = 2_000;

export const FINAL_COMMAND_STATES: readonly CommandState[] = ['confirmed', 'failed', 'timed_out', 'expired'];
export const isFinalCommand = (state: CommandState) => FINAL_COMMAND_STATES.includes(state);

/** The polled pumps of a site (shared with every widget reading the same path). */
export const sitePumpsQuery = (siteId: number) => liveQuery(`/api/site/${siteId}/pumps/`, PumpListSchema);

export type PumpTarget = 'on' | 'off';

/** POST /api/pump/{id}/turn/on|off/. A 409 (already in that state, or pending) answers `{error, error_text}` too. */
export async function turnPump(pumpId: number, target: PumpTarget): Promise<TurnPumpResponse> {
  try {
    return await api.post(`/api/pump/${pumpId}/turn/${target}/`, {}, { schema: TurnPumpResponseSchema });
  } catch (error) {
    const body = isApiError(error) ? (error.body as Partial<TurnPumpResponse> | null) : null;
    if (body && body.error === true && typeof body.error_text === 'string') {
      return { error: true, error_text: body.error_text };
    }
    throw error;
  }
}

/** POST /api/terminal/{id}/reboot/ with {reboot_type}; answers 202 with the queued command. */
export function rebootTerminal(terminalId: number, rebootType: RebootType) {
  return api.post(
    `/api/terminal/${terminalId}/reboot/`,
    { reboot_type: rebootType },
    { schema: RebootAcceptedSchema },
  );
}

/** POST /api/zendesk/ticket/; a missing subject or body answers `{error:true, error_text}` (400). */
export async function createTicket(ticket: TicketRequest): Promise<TicketResponse> {
  try {
    return await api.post('/api/zendesk/ticket/', ticket, { schema: TicketResponseSchema });
  } catch (error) {
    const body = isApiError(error) ? (error.body as Partial<TicketResponse> | null) : null;
    if (body && body.error === true && typeof body.error_text === 'string') {
      return { error: true, error_text: body.error_text };
    }
    throw error;
  }
}

/** The text to show for a failed call: the server's message, else the error's own. */
export function errorText(error: unknown): string {
  if (error instanceof ApiError) return error.errors[0] ?? error.message;
  return error instanceof Error ? error.message : String(error);
}

export const actionKeys = {
  all: ['actions'] as const,
  companySites: (companyId: number) => [...actionKeys.all, 'company-sites', companyId] as const,
  siteTerminals: (siteId: number) => [...actionKeys.all, 'site-terminals', siteId] as const,
  commands: (kind: CommandOwner, id: number) => [...actionKeys.all, 'commands', kind, id] as const,
  command: (id: number) => [...actionKeys.all, 'command', id] as const,
};

const LIST_STALE_MS = 60_000;

export const companySitesQuery = (companyId: number) =>
  queryOptions({
    queryKey: actionKeys.companySites(companyId),
    queryFn: ({ signal }) => api.get(`/api/company/${companyId}/sites/`, { schema: SiteListSchema, signal }),
    staleTime: LIST_STALE_MS,
  });

export const siteTerminalsQuery = (siteId: number) =>
  queryOptions({
    queryKey: actionKeys.siteTerminals(siteId),
    queryFn: ({ signal }) =>
      api.get(`/api/site/${siteId}/terminals/`, { schema: TerminalListSchema, signal }),
    staleTime: LIST_STALE_MS,
  });

export type CommandOwner = 'pump' | 'terminal';

/** How many commands a timeline shows. */
export const TIMELINE_LIMIT = 20;

/**
 * GET /api/{pump|terminal}/{id}/commands/: newest first, each with its history. Re-read every 2 s while
 * one is still on its way to the device, else at the polling delay.
 */
export const commandsQuery = (owner: CommandOwner, id: number) =>
  queryOptions({
    queryKey: actionKeys.commands(owner, id),
    queryFn: ({ signal }) =>
      api.get(`/api/${owner}/${id}/commands/`, {
        schema: CommandListSchema,
        query: { limit_to: TIMELINE_LIMIT },
        signal,
      }),
    refetchInterval: (query) =>
      (query.state.data ?? []).some((c) => !isFinalCommand(c.state)) ? COMMAND_WATCH_MS : 12_500,
  });

/** GET /api/command/{id}/: one command, re-read every 2 s until it reaches a final state. */
export const commandQuery = (id: number) =>
  queryOptions({
    queryKey: actionKeys.command(id),
    queryFn: ({ signal }) => api.get(`/api/command/${id}/`, { schema: CommandSchema, signal }),
    refetchInterval: (query) =>
      query.state.data && isFinalCommand(query.state.data.state) ? false : COMMAND_WATCH_MS,
  });

export type { Command, Pump };
