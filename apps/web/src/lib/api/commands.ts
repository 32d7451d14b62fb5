import { isFinalCommandState } from '@forecourt/contract/commands';
import { CommandListSchema, CommandSchema } from '@forecourt/contract/terminals';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../api-client.ts';
import { pollWhileStreamDown } from './live.ts';
import { QUERY_ROOTS } from './query-keys.ts';

/** What a command is sent to: a pump (turn on/off) or a terminal (reboot). */
export type CommandOwner = 'pump' | 'terminal';

/** How many commands a timeline shows. */
export const TIMELINE_LIMIT = 20;

/** `['commands', 'pump'|'terminal', id]`: one device's timeline; `['commands', 'id', id]`: one command. */
export const commandQueries = {
  all: [QUERY_ROOTS.commands] as const,
  owner: (owner: CommandOwner, id: number) => [QUERY_ROOTS.commands, owner, id] as const,
  /**
   * GET /api/{pump|terminal}/{id}/commands/: newest first, each with its history. Re-read when a 'pump'
   * or 'reboot' change of the device arrives on the stream (queriesTouchedBy); polled only while the
   * stream is down.
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
      refetchInterval: pollWhileStreamDown(),
    }),
  /**
   * GET /api/command/{id}/: one command, re-read on each change of a device's commands until it reaches
   * a final state (polled only while the stream is down).
   */
  detail: (commandId: number) =>
    queryOptions({
      queryKey: [QUERY_ROOTS.commands, 'id', commandId] as const,
      queryFn: ({ signal }) => api.get(`/api/command/${commandId}/`, { schema: CommandSchema, signal }),
      refetchInterval: (query) =>
        query.state.data && isFinalCommandState(query.state.data.state) ? false : pollWhileStreamDown()(),
    }),
};
