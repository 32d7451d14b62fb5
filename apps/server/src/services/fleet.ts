import type { AdminSite, AdminTerminal } from '@forecourt/contract/admin';
import {
  type Actor,
  type Outcome,
  siteNumberTaken,
  terminalNoTaken,
} from '../repositories/admin-repository.ts';
import type { Repositories } from '../repositories/index.ts';

/**
 * The fleet's rules that span tables (docs/decisions/0016-write-path.md). Moving a site to another company, or a
 * terminal to another site, moves what happened there with it, in the same unit of work: its alerts, commands,
 * shocks, connectivity events, telemetry and transactions name the new place, so the new owner sees and acts on
 * them and the old one gets 403 (scope checks and scoped reads filter on those columns).
 */
export function createFleetService(repos: Repositories) {
  return {
    async patchSite(
      actor: Actor,
      id: number,
      body: Partial<Omit<AdminSite, 'id'>>,
    ): Promise<Outcome<AdminSite>> {
      return repos.work
        .run(async (tx) => {
          const before = await repos.admin.sitePlace(tx, id);
          const outcome = await repos.admin.patchSite(tx, actor, id, body);
          if (outcome.ok && before && outcome.value.company_id !== before.companyId) {
            await repos.placeHistory.moveSite(tx, id, { companyId: outcome.value.company_id });
          }
          return outcome;
        })
        .catch(siteNumberTaken(body));
    },

    async patchTerminal(
      actor: Actor,
      id: number,
      body: Partial<Omit<AdminTerminal, 'id'>>,
    ): Promise<Outcome<AdminTerminal>> {
      return repos.work
        .run(async (tx) => {
          const before = await repos.admin.terminalPlace(tx, id);
          const outcome = await repos.admin.patchTerminal(tx, actor, id, body);
          if (outcome.ok && before && outcome.value.site_id !== before.siteId) {
            const after = await repos.admin.terminalPlace(tx, id);
            if (after) await repos.placeHistory.moveTerminal(tx, id, after);
          }
          return outcome;
        })
        .catch(terminalNoTaken(body));
    },
  };
}
export type FleetService = ReturnType<typeof createFleetService>;
