import {
  AdminPumpSchema,
  AdminSiteSchema,
  AdminTerminalSchema,
  AdminUserSchema,
  CompanySchema,
  ImportResultSchema,
} from '@forecourt/contract/admin';
import { DeviceTokenResponseSchema } from '@forecourt/contract/terminals';
import type { QueryClient } from '@tanstack/react-query';
import type { ZodType } from 'zod';
import { QUERY_ROOTS } from '../../../../../lib/api/query-keys.ts';
import { api, apiRequest } from '../../../../../lib/api-client.ts';
import { type AdminEntity, adminPath, adminQueries } from './admin-queries.ts';

const SCHEMAS: Record<AdminEntity, ZodType<{ id: number }>> = {
  companies: CompanySchema,
  sites: AdminSiteSchema,
  terminals: AdminTerminalSchema,
  pumps: AdminPumpSchema,
  users: AdminUserSchema,
};

/** POST /api/admin/{entity}/ → 201 with the created object. */
export function createEntity<T>(entity: AdminEntity, body: unknown): Promise<T> {
  return api.post(adminPath(entity), body, { schema: SCHEMAS[entity] as ZodType<T> });
}

/** PATCH /api/admin/{entity}/{id}/ → 200 with the changed object. */
export function patchEntity<T>(entity: AdminEntity, id: number, body: unknown): Promise<T> {
  return apiRequest(adminPath(entity, id), { method: 'PATCH', body, schema: SCHEMAS[entity] as ZodType<T> });
}

/** DELETE /api/admin/{entity}/{id}/: decommissions (409 names live children). */
export function decommissionEntity(entity: Exclude<AdminEntity, 'users'>, id: number) {
  return apiRequest(adminPath(entity, id), { method: 'DELETE' });
}

/** Decommissions a row, then marks what that made stale (resolves once the Administration lists are read again). */
export async function decommissionAndRefresh(
  client: QueryClient,
  entity: Exclude<AdminEntity, 'users'>,
  id: number,
) {
  await decommissionEntity(entity, id);
  await invalidateAfter(client, entity);
}

/** POST /api/terminal/{id}/device-token/ → `{token}`, shown once; the previous token stops working. */
export function provisionDeviceToken(terminalId: number) {
  return api.post(`/api/terminal/${terminalId}/device-token/`, undefined, {
    schema: DeviceTokenResponseSchema,
  });
}

/** POST /api/admin/import/?dry_run=… with the CSV as `text/csv`. */
export function importCsv(csv: string, dryRun: boolean) {
  return apiRequest('/api/admin/import/', {
    method: 'POST',
    query: { dry_run: dryRun },
    text: csv,
    headers: { 'Content-Type': 'text/csv' },
    schema: ImportResultSchema,
  });
}

/**
 * What a change of one entity makes stale: its own lists, the lists that show it (a company's name on
 * sites, a site's title on terminals and pumps), the audit, and the fleet reads of the dashboards.
 */
const TOUCHES: Record<AdminEntity | 'import', (AdminEntity | 'audit')[]> = {
  companies: ['companies', 'sites', 'terminals', 'pumps', 'users'],
  sites: ['sites', 'terminals', 'pumps', 'users'],
  terminals: ['terminals'],
  pumps: ['pumps'],
  users: ['users'],
  import: ['companies', 'sites', 'terminals', 'pumps'],
};
const FLEET_ROOTS = [
  QUERY_ROOTS.companies,
  QUERY_ROOTS.sites,
  QUERY_ROOTS.terminals,
  QUERY_ROOTS.pumps,
  QUERY_ROOTS.mapTerminals,
  QUERY_ROOTS.connectivity,
  QUERY_ROOTS.timeZones,
];

/**
 * Marks what a change made stale. Resolves once the Administration lists have been read again; the fleet
 * reads refresh in the background (some are long-polls that answer only when something changes).
 */
export function invalidateAfter(client: QueryClient, entity: AdminEntity | 'import') {
  if (entity !== 'users') {
    for (const root of FLEET_ROOTS) void client.invalidateQueries({ queryKey: [root] });
  }
  const keys = [...TOUCHES[entity], 'audit' as const].map((e) => adminQueries.entity(e));
  return Promise.all(keys.map((queryKey) => client.invalidateQueries({ queryKey })));
}
