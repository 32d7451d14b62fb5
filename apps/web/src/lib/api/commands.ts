import { isFinalCommandState } from '@forecourt/contract/commands';
import { CommandListSchema, CommandSchema } from '@forecourt/contract/terminals';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../api-client.ts';
import { POLL_INTERVAL_MS } from './live.ts';
import { QUERY_ROOTS } from './query-keys.ts';

/** While a command is not final, its state is re-read this often (ms). */
export const COMMAND_WATCH_MS = 2_000;

/** What a command is sent to: a pump (turn on/off) or a terminal (reboot). */
export type CommandOwner = 'pump' | 'terminal';

/** How many commands a timeline shows. */
export const TIMELINE_LIMIT = 20;

/** `['commands', 'pump'|'terminal', id]`: one device's timeline; `['commands', 'id', id]`: one command. */
export const commandQueries = {
  all: [QUERY_ROOTS.commands] as const,
  owner: (owner: CommandOwner, id: number) => [QUERY_ROOTS.commands, owner, id] as const,
  /**
   * GET /api/{pump|terminal}/{id}/commands/: newest first, each with its history. Re-read every 2 s
   * while one is still on its way to the device, else at the polling delay.
   */
  timeline: (owner: CommandOwner, id: number) =>
    queryOptions({
      queryKey: [...commandQueries.owner(owner, id), { limit_to: TIMELINE_LIMIT }] as const,
      queryFn: ({ signal }) =>
        api.get(`/api/${owner}/${id}/commands/`, {
          schema: CommandListSchema,
          query: { limit_to: TIMELINE_LIMIT },
          signal,
        }),
      refetchInterval: (query) =>
        (query.state.data ?? []).some((c) => !isFinalCommandState(c.state))
          ? COMMAND_WATCH_MS
          : POLL_INTERVAL_MS,
    }),
  /** GET /api/command/{id}/: one command, re-read every 2 s until it reaches a final state. */
  detail: (commandId: number) =>
    queryOptions({
      queryKey: [QUERY_ROOTS.commands, 'id', commandId] as const,
      queryFn: ({ signal }) => api.get(`/api/command/${commandId}/`, { schema: CommandSchema, signal }),
      refetchInterval: (query) =>
        query.state.data && isFinalCommandState(query.state.data.state) ? false : COMMAND_WATCH_MS,
    }),
};
