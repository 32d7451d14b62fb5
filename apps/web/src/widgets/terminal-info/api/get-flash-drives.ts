import { FlashDriveSchema } from '@forecourt/contract/terminals';
import { queryOptions } from '@tanstack/react-query';
import { z } from 'zod';
import { polled } from '../../../lib/api/live.ts';
import { QUERY_ROOTS, scopedKey } from '../../../lib/api/query-keys.ts';
import { api } from '../../../lib/api-client.ts';
import type { SiteScope } from '../../../lib/scope.ts';

const FlashDriveListSchema = z.array(FlashDriveSchema);

export const flashDriveQueries = {
  all: [QUERY_ROOTS.flashDrives] as const,
  /** GET /api/site/{id}/terminals/flashdisk/: the latest flash drive reading of each terminal. */
  site: (scope: SiteScope) =>
    queryOptions({
      queryKey: scopedKey(QUERY_ROOTS.flashDrives, scope),
      queryFn: ({ signal }) =>
        api.get(`/api/site/${scope.id}/terminals/flashdisk/`, { schema: FlashDriveListSchema, signal }),
      ...polled,
    }),
};
