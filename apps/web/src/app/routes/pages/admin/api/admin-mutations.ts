import { ADMIN_ENTITIES, ImportResultSchema } from '@forecourt/contract/admin';
import { ADMIN_ENTITY_NAMES } from '@forecourt/contract/admin-entities';
import { DeviceTokenResponseSchema } from '@forecourt/contract/terminals';
import type { QueryClient } from '@tanstack/react-query';
import type { ZodType } from 'zod';
import { QUERY_ROOTS } from '../../../../../lib/api/query-keys.ts';
import { api, apiRequest } from '../../../../../lib/api-client.ts';
import { type AdminEntity, adminPath, adminQueries } from './admin-queries.ts';

/** The object an entity's writes answer (the contract's ADMIN_ENTITIES). */
const rowSchema = <T>(entity: AdminEntity) =>
  ADMIN_ENTITIES[entity].row as ZodType<{ id: number }> as ZodType<T>;

/** POST /api/admin/{entity}/ → 201 with the created object. */
export function createEntity<T>(entity: AdminEntity, body: unknown): Promise<T> {
  return api.post(adminPath(entity), body, { schema: rowSchema<T>(entity) });
}

/** PATCH /api/admin/{entity}/{id}/ → 200 with the changed object. */
export function patchEntity<T>(entity: AdminEntity, id: number, body: unknown): Promise<T> {
  return apiRequest(adminPath(entity, id), { method: 'PATCH', body, schema: rowSchema<T>(entity) });
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

/** The entities whose rows name this one: its children by ADMIN_ENTITIES' parents, theirs, and so on. */
function namedBy(entity: AdminEntity): AdminEntity[] {
  const children = ADMIN_ENTITY_NAMES.filter((e) =>
    (ADMIN_ENTITIES[e].parents as readonly AdminEntity[]).includes(entity),
  );
  return [...new Set(children.flatMap((child) => [child, ...namedBy(child)]))];
}

/**
 * What a change of one entity makes stale: its own lists, the lists that show it (a company's name on
 * sites, a site's title on terminals and pumps), the audit, and the fleet reads of the dashboards. An import
 * writes companies, sites, terminals and pumps.
 */
const touches = (entity: AdminEntity | 'import'): (AdminEntity | 'audit')[] =>
  entity === 'import' ? ['companies', 'sites', 'terminals', 'pumps'] : [entity, ...namedBy(entity)];
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
  const keys = [...touches(entity), 'audit' as const].map((e) => adminQueries.entity(e));
  return Promise.all(keys.map((queryKey) => client.invalidateQueries({ queryKey })));
}
