import type { ChangeInput } from '../repositories/change-repository.ts';
import type { Place, RuleActor } from '../repositories/rule-sql.ts';
import type { Tx } from './actor.ts';

export const fleetChange = (p: Place): ChangeInput => ({
  kind: 'fleet',
  agentId: p.agentId,
  companyId: p.companyId,
  siteId: p.siteId,
});

/**
 * What a write to an object with a place (an alert rule, a maintenance window, a contact point, a notification
 * policy) records in its unit of work: one audit entry under the agent of its place, with the object as the API
 * shows it before and after, and the 'fleet' change of its place (of both places when it moved), with `changes`
 * (its alerts) beside them.
 */
export function placeWrites<R extends { id: number; place: Place }>(
  entity: string,
  shown: (r: R) => unknown,
) {
  return async (
    tx: Tx,
    actor: RuleActor,
    action: string,
    w: { before: R | null; after: R | null; afterShown?: unknown; changes?: readonly ChangeInput[] },
  ): Promise<void> => {
    const it = (w.after ?? w.before)!;
    await tx.audit({
      userId: actor.userId,
      username: actor.username,
      agentId: it.place.agentId,
      action,
      entity,
      entityId: it.id,
      before: w.before && shown(w.before),
      after: w.afterShown !== undefined ? w.afterShown : w.after && shown(w.after),
    });
    const places = [w.before, w.after].flatMap((r) => (r ? [fleetChange(r.place)] : []));
    await tx.changed([...places, ...(w.changes ?? [])]);
  };
}
