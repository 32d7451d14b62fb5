import { SiteDetailSchema, SiteStatusSchema } from '@forecourt/contract/fleet';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '../api-client.ts';
import type { FleetScope, Scope } from '../scope.ts';
import { polled } from './live.ts';
import { QUERY_ROOTS, scopedKey } from './query-keys.ts';

const SiteStatusListSchema = z.array(SiteStatusSchema);

/** Details change rarely: fetched once, kept a few minutes, not polled. */
export const DETAIL_STALE_MS = 5 * 60_000;

/**
 * `['sites', 'agent'|'company', id]`: the sites of an agent or company with their online status;
 * `['sites', 'site', id]`: one site's own record.
 */
export const siteQueries = {
  all: [QUERY_ROOTS.sites] as const,
  /** GET /api/{agent|company}/{id}/sites/: sites online, connectivity and the reboot chain read it. */
  list: (scope: FleetScope) =>
    queryOptions({
      queryKey: scopedKey(QUERY_ROOTS.sites, scope),
      queryFn: ({ signal }) =>
        api.get(`/api/${scope.kind}/${scope.id}/sites/`, { schema: SiteStatusListSchema, signal }),
      ...polled,
    }),
  /** GET /api/site/detail/{id}/: title, company, coordinates and time zone of one site. */
  detail: (siteId: number) =>
    queryOptions({
      queryKey: scopedKey(QUERY_ROOTS.sites, { kind: 'site', id: siteId }),
      queryFn: ({ signal }) => api.get(`/api/site/detail/${siteId}/`, { schema: SiteDetailSchema, signal }),
      staleTime: DETAIL_STALE_MS,
    }),
};

/**
 * The company a scope belongs to, for links into company paths: the company itself, a site's company
 * (from the site detail every site dashboard reads anyway), none for an agent.
 */
export function useScopeCompanyId(scope: Scope): number | undefined {
  const site = useQuery({ ...siteQueries.detail(scope.id), enabled: scope.kind === 'site' && scope.id > 0 });
  if (scope.kind === 'company') return scope.id;
  return scope.kind === 'site' ? site.data?.company_id : undefined;
}
