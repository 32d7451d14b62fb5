import { TimeZoneSchema } from '@forecourt/contract/fleet';
import { queryOptions } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '../api-client.ts';
import type { FleetScope } from '../scope.ts';
import { polled } from './live.ts';
import { QUERY_ROOTS, scopedKey } from './query-keys.ts';

const TimeZoneListSchema = z.array(TimeZoneSchema);

export const timeZoneQueries = {
  all: [QUERY_ROOTS.timeZones] as const,
  /**
   * GET /api/{agent|company}/{id}/time/zones/: the local time widget's clocks; the first zone is the
   * one a log screen shows and takes dates in.
   */
  list: (scope: FleetScope) =>
    queryOptions({
      queryKey: scopedKey(QUERY_ROOTS.timeZones, scope),
      queryFn: ({ signal }) =>
        api.get(`/api/${scope.kind}/${scope.id}/time/zones/`, { schema: TimeZoneListSchema, signal }),
      ...polled,
    }),
};
