import { ShockSchema } from '@forecourt/contract/terminals';
import { queryOptions } from '@tanstack/react-query';
import { z } from 'zod';
import { polled } from '../../../lib/api/live.ts';
import { QUERY_ROOTS, scopedKey } from '../../../lib/api/query-keys.ts';
import { api } from '../../../lib/api-client.ts';
import type { Scope } from '../../../lib/scope.ts';

const ShockListSchema = z.array(ShockSchema);

/** How many shock readings the widget lists. */
export const SHOCK_LIMIT = 50;

export const shockQueries = {
  all: [QUERY_ROOTS.shocks] as const,
  /** A site's own readings (GET /api/site/{id}/terminals/shock/), else the company's or agent's shock log. */
  list: (scope: Scope, limit = SHOCK_LIMIT) =>
    queryOptions({
      queryKey: [...scopedKey(QUERY_ROOTS.shocks, scope), { limit_to: limit }] as const,
      queryFn: ({ signal }) =>
        api.get(
          scope.kind === 'site'
            ? `/api/site/${scope.id}/terminals/shock/`
            : `/api/${scope.kind}/${scope.id}/shock/log/`,
          { query: { limit_to: limit }, schema: ShockListSchema, signal },
        ),
      ...polled,
    }),
};
