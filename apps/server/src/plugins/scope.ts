import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { forbidden, notFound } from '../lib/errors.ts';
import type { EntityKind, Location } from '../repositories/org-repository.ts';
import type { Principal } from '../repositories/principal-repository.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The scoped entity of the path, set by `app.scope(kind)`. */
    target: { kind: EntityKind; id: number; location: Location } | null;
  }
  interface FastifyInstance {
    /**
     * preHandler factory: authenticates, reads the numeric id from `params[param]` (non-numeric → 404),
     * finds the entity (unknown → 404) and checks the caller reaches it (else 403).
     */
    scope: (kind: EntityKind, param?: string) => (request: FastifyRequest) => Promise<void>;
  }
}

/** Agent → all under its agent id; company user → its companies and their sites; site user → its sites. */
export function canReach(principal: Principal, kind: EntityKind, id: number, loc: Location): boolean {
  if (principal.agentId !== null && loc.agentId === principal.agentId) return true;
  if (kind === 'agent') return false;
  if (kind === 'company') return principal.companyIds.includes(id);
  if (loc.companyId !== null && principal.companyIds.includes(loc.companyId)) return true;
  return loc.siteId !== null && principal.siteIds.includes(loc.siteId);
}

export function parseId(raw: unknown): number | null {
  if (typeof raw !== 'string' && typeof raw !== 'number') return null;
  const s = String(raw);
  if (!/^\d{1,10}$/.test(s)) return null;
  const n = Number(s);
  return n > 0 && n <= 2_147_483_647 ? n : null;
}

export const scopePlugin = fp(async (app: FastifyInstance) => {
  app.decorateRequest('target', null);
  app.decorate('scope', (kind: EntityKind, param = 'id') => {
    return async (request: FastifyRequest) => {
      await app.authenticate(request);
      const id = parseId((request.params as Record<string, unknown>)[param]);
      if (id === null) throw notFound();
      const location = await app.repos.org.locate(kind, id);
      if (!location) throw notFound(`No ${kind} with id ${id}.`);
      if (!canReach(request.principal!, kind, id, location)) throw forbidden();
      request.target = { kind, id, location };
    };
  });
});
