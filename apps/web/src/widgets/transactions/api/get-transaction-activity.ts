import { TransactionActivitySchema } from '@forecourt/contract/transactions';
import { useQuery } from '@tanstack/react-query';
import { liveQuery } from '../../../lib/api/live.ts';

/** `GET /api/transactions/{siteId}/`, polled; one query per site shared by every widget showing it. */
export function transactionActivityQuery(siteId: number) {
  return liveQuery(`/api/transactions/${siteId}/`, TransactionActivitySchema);
}

export function useTransactionActivity(siteId: number) {
  return useQuery(transactionActivityQuery(siteId));
}
