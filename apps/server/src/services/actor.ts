import type { ChangeInput } from '../repositories/change-repository.ts';
import type { Repositories } from '../repositories/index.ts';
import { nullableNum } from '../repositories/read-scope.ts';

/** The unit of work a service writes through (`repos.work.run(async (tx) => …)`). */
export type Tx = Parameters<Parameters<Repositories['work']['run']>[0]>[0];
/** One audit entry of a unit of work. */
export type AuditEntry = Extract<Parameters<Tx['audit']>[0], { action: string }>;

/** The agent user administering the fleet: every write is theirs, under their agent id. */
export interface Actor {
  userId: number;
  username: string;
  agentId: number;
}

/** The audit entry of an administrator's change. */
export const auditOf = (
  actor: Actor,
  action: string,
  entity: string,
  entityId: number | null,
  before: unknown,
  after: unknown,
): AuditEntry => ({
  userId: actor.userId,
  username: actor.username,
  agentId: actor.agentId,
  action,
  entity,
  entityId,
  before,
  after,
});

/** The 'fleet' change of a place of the agent's fleet (the live feed). */
export const fleetAt = (
  agentId: number,
  place: { companyId?: unknown; siteId?: unknown; terminalId?: unknown; pumpId?: unknown; userId?: number },
): ChangeInput => ({
  kind: 'fleet',
  agentId,
  companyId: nullableNum(place.companyId),
  siteId: nullableNum(place.siteId),
  terminalId: nullableNum(place.terminalId),
  pumpId: nullableNum(place.pumpId),
  userId: place.userId ?? null,
});

/** 'session' changes of users whose rights changed (each node forgets their principal). */
export const sessionsOf = (userIds: readonly number[]): ChangeInput[] =>
  userIds.map((userId) => ({ kind: 'session', userId }));
