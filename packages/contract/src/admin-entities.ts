/**
 * The entities agents administer under `/api/admin/<name>/` (docs/adding-an-entity.md), in the console's menu
 * order. What each is (its name in the audit, what it belongs to, its schemas) is in admin.ts's ADMIN_ENTITIES;
 * this list lives apart so the console's menu reads it at first paint without the schemas.
 */
export const ADMIN_ENTITY_NAMES = ['companies', 'sites', 'terminals', 'pumps', 'users'] as const;
export type AdminEntity = (typeof ADMIN_ENTITY_NAMES)[number];
