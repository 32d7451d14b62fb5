import { type Target, type TargetPreview, TargetSchema } from '@forecourt/contract/targets';
import { badRequest, forbidden } from '../lib/errors.ts';
import { canReach } from '../plugins/scope.ts';
import type { Repositories } from '../repositories/index.ts';
import type { Location } from '../repositories/org-repository.ts';
import type { Principal } from '../repositories/principal-repository.ts';

/**
 * Targets (docs/targets.md): `{scope: {kind, id}, tags}` names the live terminals inside the scope carrying every
 * tag. This service owns the rules every feature that aims at terminals shares: how a target is read (400 naming
 * `target` and the bad part), who may aim at it (403 outside the caller's scope) and what it reaches now. Statements
 * that must resolve a target inside their own SQL embed repositories/target-sql.ts instead of a list of ids, so the
 * target is evaluated when it is used.
 */
export function createTargetService(repos: Repositories) {
  const service = {
    /** A target from a request body's `target` field (already checked or not): 400 naming what is wrong. */
    parse(value: unknown): Target {
      const checked = TargetSchema.safeParse(value);
      if (checked.success) return checked.data;
      const messages = checked.error.issues.map((issue) => {
        const path = ['target', ...issue.path.map(String)].join('.');
        return issue.message.startsWith('target') ? issue.message : `${path}: ${issue.message}`;
      });
      throw badRequest([...new Set(messages)]);
    },

    /**
     * Checks that `principal` may aim at the target: its scope must exist and be live (else 400 naming
     * `target.scope.id`) and lie inside the caller's scope (else 403). Answers where the scope is (its agent id
     * names whose fleet an audit entry belongs to).
     */
    async authorize(principal: Principal, target: Target): Promise<Location> {
      const { kind, id } = target.scope;
      const location = await repos.org.locate(kind, id);
      if (!location) throw badRequest(`target.scope.id: no ${kind} with id ${id}`);
      if (!canReach(principal, kind, id, location)) {
        throw forbidden(`The target's ${kind} ${id} is outside your scope.`);
      }
      return location;
    },

    /** parse + authorize: the target of a write, ready to store. */
    async accept(principal: Principal, value: unknown): Promise<Target> {
      const target = service.parse(value);
      await service.authorize(principal, target);
      return target;
    },

    /** How many terminals the target reaches now, and the first `limit` of them. */
    preview(target: Target, limit = 20): Promise<TargetPreview> {
      return repos.targets.preview(target, limit);
    },

    /** The ids of the terminals the target reaches now. */
    terminalIds(target: Target): Promise<number[]> {
      return repos.targets.terminalIds(target);
    },

    /** Whether the target reaches the terminal now. */
    reaches(target: Target, terminalId: number): Promise<boolean> {
      return repos.targets.reaches(target, terminalId);
    },
  };
  return service;
}
export type TargetService = ReturnType<typeof createTargetService>;
