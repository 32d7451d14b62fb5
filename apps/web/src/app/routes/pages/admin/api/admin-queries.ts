import { ADMIN_ENTITIES, AuditEntrySchema } from '@forecourt/contract/admin';
import { ADMIN_ENTITY_NAMES, type AdminEntity } from '@forecourt/contract/admin-entities';
import { DEFAULT_LIMIT } from '@forecourt/contract/common';
import { infiniteQueryOptions } from '@tanstack/react-query';
import { type ZodType, z } from 'zod';
import { QUERY_ROOTS } from '../../../../../lib/api/query-keys.ts';
import { api } from '../../../../../lib/api-client.ts';

export type { AdminEntity };

/** `/api/admin/{entity}/` (docs/product.md#fleet-administration). */
export const adminPath = (entity: AdminEntity | 'audit', id?: number) =>
  id === undefined ? `/api/admin/${entity}/` : `/api/admin/${entity}/${id}/`;

/** One page of a list, and the cursor of the next one (null after the last). */
export interface Page<T> {
  rows: T[];
  next: string | null;
}

/** Filters of a list as sent (`q`, `company_id`, `entity`, repeatable `tag`...); empty values are left out. */
export type ListParams = Record<string, string | number | string[] | undefined>;

function cleanParams(params: ListParams): ListParams {
  const out: ListParams = {};
  for (const key of Object.keys(params).sort()) {
    const v = params[key];
    if (v !== undefined && v !== '' && !(Array.isArray(v) && v.length === 0)) out[key] = v;
  }
  return out;
}

/** Lists page like the logs: `limit_to` rows, then `before` = the last row's cursor (its id where it has none). */
async function getPage<T extends { id: number; cursor?: string }>(
  path: string,
  schema: ZodType<T>,
  params: ListParams,
  limit: number,
  before: string | undefined,
  signal: AbortSignal,
): Promise<Page<T>> {
  const rows = await api.get(path, {
    query: { ...params, limit_to: limit, before },
    schema: z.array(schema),
    signal,
  });
  const last = rows.at(-1);
  return { rows, next: last && rows.length >= limit ? (last.cursor ?? String(last.id)) : null };
}

function listOptions<T extends { id: number; cursor?: string }>(
  entity: AdminEntity | 'audit',
  schema: ZodType<T>,
) {
  return (params: ListParams = {}, limit = DEFAULT_LIMIT) => {
    const filters = cleanParams(params);
    return infiniteQueryOptions({
      queryKey: [...adminQueries.entity(entity), 'list', filters, limit] as const,
      queryFn: ({ pageParam, signal }) =>
        getPage(adminPath(entity), schema, filters, limit, pageParam, signal),
      initialPageParam: undefined as string | undefined,
      getNextPageParam: (last: Page<T>) => last.next ?? undefined,
    });
  };
}

/** Each entity's list: `adminQueries.pumps(params)` reads GET /api/admin/pumps/ (the contract's ADMIN_ENTITIES). */
type EntityLists = {
  [E in AdminEntity]: ReturnType<typeof listOptions<z.output<(typeof ADMIN_ENTITIES)[E]['row']>>>;
};
const entityLists = Object.fromEntries(
  ADMIN_ENTITY_NAMES.map((entity) => [
    entity,
    listOptions(entity, ADMIN_ENTITIES[entity].row as ZodType<{ id: number }>),
  ]),
) as unknown as EntityLists;

/**
 * The Administration area's reads: one factory per endpoint, keys `['admin', entity, 'list', filters, limit]`,
 * so a change invalidates one entity (`adminQueries.entity('sites')`) or all of them (`adminQueries.all`).
 */
export const adminQueries = {
  all: [QUERY_ROOTS.admin] as const,
  entity: (entity: AdminEntity | 'audit') => [QUERY_ROOTS.admin, entity] as const,
  ...entityLists,
  /** GET /api/admin/audit/ */
  audit: listOptions('audit', AuditEntrySchema),
};
