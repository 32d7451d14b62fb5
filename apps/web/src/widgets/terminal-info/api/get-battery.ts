import { BatterySchema } from '@forecourt/contract/terminals';
import { queryOptions } from '@tanstack/react-query';
import { z } from 'zod';
import { polled } from '../../../lib/api/live.ts';
import { QUERY_ROOTS, scopedKey } from '../../../lib/api/query-keys.ts';
import { api } from '../../../lib/api-client.ts';
import type { SiteScope } from '../../../lib/scope.ts';

const BatteryListSchema = z.array(BatterySchema);

export const batteryQueries = {
  all: [QUERY_ROOTS.battery] as const,
  /** GET /api/site/{id}/terminals/battery/: the latest battery reading of each terminal. */
  site: (scope: SiteScope) =>
    queryOptions({
      queryKey: scopedKey(QUERY_ROOTS.battery, scope),
      queryFn: ({ signal }) =>
        api.get(`/api/site/${scope.id}/terminals/battery/`, { schema: BatteryListSchema, signal }),
      ...polled,
    }),
};
