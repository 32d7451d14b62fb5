import type { NotificationPolicy } from '@forecourt/contract/notifications';
import type { Severity } from '@forecourt/contract/severity';
import type { Database } from '../db/client.ts';
import type { notificationPolicies } from '../db/schema/notifications.ts';
import { listManaged, type ManagedTable, managedById } from './managed-sql.ts';
import { iso, num } from './read-scope.ts';
import type { Row } from './rows.ts';
import type { Place, Visibility } from './rule-repository.ts';
import { targetParams } from './rule-sql.ts';
import type { Tx } from './unit-of-work.ts';

export interface PolicyRecord extends NotificationPolicy {
  place: Place;
}

/** A policy's fields as written. */
export interface PolicyFields {
  name: string;
  scopeKind: string;
  scopeId: number;
  tags: string[];
  place: Place;
  minSeverity: Severity;
  eventTypes: number[];
  ruleIds: number[];
  contactPointIds: number[];
  escalateAfterS: number | null;
  escalateToIds: number[];
  enabled: boolean;
}

type DbPolicy = Row<
  typeof notificationPolicies,
  | 'id'
  | 'name'
  | 'scope_kind'
  | 'scope_id'
  | 'tags'
  | 'agent_id'
  | 'company_id'
  | 'site_id'
  | 'min_severity'
  | 'event_types'
  | 'rule_ids'
  | 'contact_point_ids'
  | 'escalate_after_s'
  | 'escalate_to_ids'
  | 'enabled'
  | 'created_by'
  | 'created_at'
>;

const TABLE: ManagedTable = {
  table: 'notification_policies',
  x: 'p',
  cols: `p.id, p.name, p.scope_kind, p.scope_id, p.tags, p.agent_id, p.company_id, p.site_id, p.min_severity,
              p.event_types, p.rule_ids, p.contact_point_ids, p.escalate_after_s, p.escalate_to_ids, p.enabled,
              p.created_by, p.created_at`,
};
const COLS = TABLE.cols;

const ints = (v: unknown[] | null) => (v ?? []).map(num);

function toRecord(r: DbPolicy): PolicyRecord {
  return {
    id: num(r.id),
    name: r.name,
    target: { scope: { kind: r.scope_kind as 'agent', id: num(r.scope_id) }, tags: r.tags ?? [] },
    min_severity: r.min_severity as Severity,
    event_types: ints(r.event_types),
    rule_ids: ints(r.rule_ids),
    contact_point_ids: ints(r.contact_point_ids),
    escalate_after_s: r.escalate_after_s === null ? null : num(r.escalate_after_s),
    escalate_to_ids: ints(r.escalate_to_ids),
    enabled: r.enabled,
    created_by: r.created_by,
    created_at: iso(r.created_at)!,
    place: { agentId: r.agent_id, companyId: r.company_id, siteId: r.site_id },
  };
}

const fieldParams = (f: PolicyFields) => [
  f.name,
  ...targetParams(f),
  f.minSeverity,
  f.eventTypes,
  f.ruleIds,
  f.contactPointIds,
  f.escalateAfterS,
  f.escalateToIds,
  f.enabled,
];

/**
 * Notification policies (docs/integrations.md): one table's SQL. Which alerts a policy matches is decided when the
 * alert is raised, by the alerts table's trigger (migration `notifications`), so every way an alert is raised is
 * covered.
 */
export function createNotificationPolicyRepository(database: Database) {
  return {
    async list(v: Visibility, page: { limit: number; before?: string }): Promise<PolicyRecord[]> {
      return (await listManaged<DbPolicy>(database, TABLE, v, page)).map(toRecord);
    },

    async byId(id: number, v: Visibility): Promise<{ policy: PolicyRecord; visible: boolean } | null> {
      const r = await managedById<DbPolicy>(database, TABLE, id, v);
      return r ? { policy: toRecord(r), visible: r.visible } : null;
    },

    async insert(tx: Tx, actor: { userId: number; username: string }, f: PolicyFields) {
      const rows = await tx<DbPolicy>(
        `insert into notification_policies as p (name, scope_kind, scope_id, tags, agent_id, company_id, site_id,
                  min_severity, event_types, rule_ids, contact_point_ids, escalate_after_s, escalate_to_ids, enabled,
                  created_by, created_by_id)
         values ($1, $2, $3, $4::text[], $5, $6, $7, $8, $9::smallint[], $10::int[], $11::int[], $12, $13::int[], $14,
                 $15, $16)
         returning ${COLS}`,
        [...fieldParams(f), actor.username, actor.userId],
      );
      return toRecord(rows[0]!);
    },

    async update(tx: Tx, id: number, f: PolicyFields) {
      const rows = await tx<DbPolicy>(
        `update notification_policies p set name = $2, scope_kind = $3, scope_id = $4, tags = $5::text[],
                agent_id = $6, company_id = $7, site_id = $8, min_severity = $9, event_types = $10::smallint[],
                rule_ids = $11::int[], contact_point_ids = $12::int[], escalate_after_s = $13,
                escalate_to_ids = $14::int[], enabled = $15
          where p.id = $1
          returning ${COLS}`,
        [id, ...fieldParams(f)],
      );
      return toRecord(rows[0]!);
    },

    /** Deletes a policy; the escalations it still owed go with it. */
    async remove(tx: Tx, id: number): Promise<void> {
      await tx('delete from notification_policies where id = $1', [id]);
    },
  };
}
export type NotificationPolicyRepository = ReturnType<typeof createNotificationPolicyRepository>;
