import {
  type MaintenanceCreateInput,
  type MaintenanceWindow,
  MaintenanceWindowSchema,
} from '@forecourt/contract/maintenance';
import { queryOptions } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '../api-client.ts';
import { QUERY_ROOTS } from './query-keys.ts';

/** How many windows the Maintenance page reads at once (the API's most), newest first. */
export const WINDOWS_LIMIT = 1000;

/** `GET|POST /api/maintenance/`, `DELETE /api/maintenance/{id}/` (docs/rules-and-maintenance.md). */
export const maintenanceQueries = {
  all: [QUERY_ROOTS.maintenance] as const,
  list: () =>
    queryOptions({
      queryKey: [QUERY_ROOTS.maintenance, 'list'] as const,
      queryFn: ({ signal }) =>
        api.get('/api/maintenance/', {
          query: { limit_to: WINDOWS_LIMIT },
          schema: z.array(MaintenanceWindowSchema),
          signal,
        }),
    }),
};

export const createWindow = (body: MaintenanceCreateInput): Promise<MaintenanceWindow> =>
  api.post('/api/maintenance/', body, { schema: MaintenanceWindowSchema });

/** Ends a window now; it stays listed with its real end. */
export const endWindow = (id: number): Promise<MaintenanceWindow> =>
  api.delete(`/api/maintenance/${id}/`, { schema: MaintenanceWindowSchema });
