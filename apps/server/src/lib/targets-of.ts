import type { Target } from '@forecourt/contract/targets';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { canReach } from '../plugins/scope.ts';
import type { Place, RuleActor, Visibility } from '../repositories/rule-repository.ts';
import { forbidden } from './errors.ts';

/** What the caller reads: its scope (rules and windows inside it or reaching into it). */
export const visibilityOf = (request: FastifyRequest): Visibility => {
  const p = request.principal!;
  return { agentId: p.agentId, companyIds: p.companyIds, siteIds: p.siteIds };
};

export const actorOf = (request: FastifyRequest): RuleActor => ({
  userId: request.principal!.userId,
  username: request.principal!.username,
});

/** The target of a write, checked (400 for an unknown scope, 403 outside the caller's), with where its scope is. */
export async function placeOf(app: FastifyInstance, request: FastifyRequest, target: Target): Promise<Place> {
  const loc = await app.targets.authorize(request.principal!, target);
  return { agentId: loc.agentId, companyId: loc.companyId, siteId: loc.siteId };
}

/**
 * May the caller change what aims at `target` (stored with `place`)? Its scope as the fleet is now must be inside the
 * caller's; a scope since decommissioned is judged by where it was. 403 otherwise.
 */
export async function checkWritable(
  app: FastifyInstance,
  request: FastifyRequest,
  target: Target,
  place: Place,
): Promise<void> {
  const { kind, id } = target.scope;
  const loc = (await app.repos.org.locate(kind, id)) ?? {
    ...place,
    terminalId: kind === 'terminal' ? id : null,
  };
  if (!canReach(request.principal!, kind, id, loc))
    throw forbidden(`The target's ${kind} ${id} is outside your scope.`);
}
