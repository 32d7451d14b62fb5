import { CompanyDetailSchema } from '@forecourt/contract/fleet';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../api-client.ts';
import { QUERY_ROOTS, scopedKey } from './query-keys.ts';
import { DETAIL_STALE_MS } from './sites.ts';

export const companyQueries = {
  all: [QUERY_ROOTS.companies] as const,
  /** GET /api/company/detail/{id}/: the company's name and agent; not polled. */
  detail: (companyId: number) =>
    queryOptions({
      queryKey: scopedKey(QUERY_ROOTS.companies, { kind: 'company', id: companyId }),
      queryFn: ({ signal }) =>
        api.get(`/api/company/detail/${companyId}/`, { schema: CompanyDetailSchema, signal }),
      staleTime: DETAIL_STALE_MS,
    }),
};
