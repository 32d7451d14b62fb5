import type { AuditEntry } from '@forecourt/contract/admin';
import type { Database } from '../db/client.ts';
import type { auditLog } from '../db/schema/events.ts';
import { iso, num, Params } from './read-scope.ts';
import type { Row } from './rows.ts';

export interface AuditFilters {
  limit: number;
  before?: string;
  entity?: string;
  user?: string;
  entityId?: number;
}

/**
 * The audit trail (docs/product.md#fleet-administration): administrative changes, device-token provisioning and
 * alert acknowledgements, newest first. An agent reads the entries of its own fleet; an acknowledgement written
 * without an agent id belongs to the agent of its alert.
 */
export function createAuditRepository(database: Database) {
  return {
    async list(agentId: number, f: AuditFilters): Promise<AuditEntry[]> {
      const p = new Params();
      const a = p.add(agentId);
      const where = [
        `(a.agent_id = ${a} or (a.agent_id is null and a.entity = 'alert'
           and exists (select 1 from alerts x where x.id = a.entity_id and x.agent_id = ${a})))`,
      ];
      if (f.before) where.push(`a.id < ${p.add(f.before)}::bigint`);
      if (f.entity) where.push(`a.entity = ${p.add(f.entity)}`);
      if (f.user) where.push(`lower(a.username) = lower(${p.add(f.user)})`);
      if (f.entityId !== undefined) where.push(`a.entity_id = ${p.add(f.entityId)}`);
      const rows = await database.query<
        Row<
          typeof auditLog,
          'id' | 'at' | 'username' | 'action' | 'entity' | 'entity_id' | 'before' | 'after'
        >
      >(
        `select a.id, a.at, a.username, a.action, a.entity, a.entity_id, a.before, a.after
           from audit_log a where ${where.join(' and ')} order by a.id desc limit ${p.add(f.limit)}`,
        p.values,
      );
      return rows.map((r) => ({
        id: num(r.id),
        cursor: String(r.id),
        at: iso(r.at)!,
        user: r.username,
        action: r.action,
        entity: r.entity,
        entity_id: r.entity_id === null ? null : num(r.entity_id),
        before: parseJson(r.before),
        after: parseJson(r.after),
      }));
    },
  };
}
export type AuditRepository = ReturnType<typeof createAuditRepository>;

/** jsonb comes back parsed from pg and PGlite; a string is parsed once more only if it is JSON text. */
function parseJson(v: unknown): unknown {
  return v === undefined ? null : v;
}
