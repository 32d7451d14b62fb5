import { TransactionActivitySchema } from '@forecourt/contract/transactions';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { polled } from '../../../lib/api/live.ts';
import { QUERY_ROOTS, scopedKey } from '../../../lib/api/query-keys.ts';
import { api } from '../../../lib/api-client.ts';
import type { SiteScope } from '../../../lib/scope.ts';

export const transactionQueries = {
  all: [QUERY_ROOTS.transactions] as const,
  /** GET /api/transactions/{siteId}/: the site's transaction activity, polled. */
  activity: (scope: SiteScope) =>
    queryOptions({
      queryKey: scopedKey(QUERY_ROOTS.transactions, scope),
      queryFn: ({ signal }) =>
        api.get(`/api/transactions/${scope.id}/`, { schema: TransactionActivitySchema, signal }),
      ...polled,
    }),
};

export function useTransactionActivity(scope: SiteScope) {
  return useQuery(transactionQueries.activity(scope));
}
