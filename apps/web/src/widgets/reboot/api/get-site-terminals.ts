import { TerminalSchema } from '@forecourt/contract/fleet';
import { queryOptions } from '@tanstack/react-query';
import { z } from 'zod';
import { QUERY_ROOTS, scopedKey } from '../../../lib/api/query-keys.ts';
import { api } from '../../../lib/api-client.ts';
import type { SiteScope } from '../../../lib/scope.ts';

const TerminalListSchema = z.array(TerminalSchema);

export const terminalQueries = {
  all: [QUERY_ROOTS.terminals] as const,
  /** GET /api/site/{id}/terminals/: the terminals to choose from; the list changes rarely. */
  site: (scope: SiteScope) =>
    queryOptions({
      queryKey: scopedKey(QUERY_ROOTS.terminals, scope),
      queryFn: ({ signal }) =>
        api.get(`/api/site/${scope.id}/terminals/`, { schema: TerminalListSchema, signal }),
      staleTime: 60_000,
    }),
};
