import {
  type ApiKey,
  ApiKeyCreatedSchema,
  type ApiKeyCreateInput,
  ApiKeySchema,
} from '@forecourt/contract/api-keys';
import { queryOptions } from '@tanstack/react-query';
import { z } from 'zod';
import { QUERY_ROOTS } from '../../../../../lib/api/query-keys.ts';
import { api } from '../../../../../lib/api-client.ts';

/** GET /api/api-keys/: the signed-in user's keys, newest first (a user keeps few: the first page is all of them). */
export const apiKeysQuery = () =>
  queryOptions({
    queryKey: [QUERY_ROOTS.apiKeys] as const,
    queryFn: ({ signal }) =>
      api.get('/api/api-keys/', { schema: z.array(ApiKeySchema), query: { limit_to: 1000 }, signal }),
  });

/** POST /api/api-keys/: the new key, with its token (shown once). */
export function createApiKey(body: ApiKeyCreateInput) {
  return api.post('/api/api-keys/', body, { schema: ApiKeyCreatedSchema });
}

/** DELETE /api/api-keys/{id}/: the key stops working at once. */
export function deleteApiKey(key: Pick<ApiKey, 'id'>) {
  return api.delete(`/api/api-keys/${key.id}/`, { schema: ApiKeySchema });
}
