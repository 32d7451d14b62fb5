import type { Tx } from './unit-of-work.ts';

/**
 * The place columns of what happened at a terminal. Alerts, commands, shocks and connectivity events carry their
 * terminal's site, company and agent; telemetry and transactions their terminal's site (repositories/read-scope.ts:
 * every scoped read and scope check filters on them, indexed). When a site or a terminal moves, these columns move
 * with it in the same unit of work: the new owner then reaches its history and the old one no longer does
 * (docs/decisions/0016-write-path.md).
 */
export function createPlaceHistoryRepository() {
  return {
    /** A site moved to another company of the agent: its rows name the new company. Answers the rows moved. */
    async moveSite(tx: Tx, siteId: number, to: { companyId: number }): Promise<number> {
      let moved = 0;
      for (const table of ['alerts', 'commands', 'shocks', 'connectivity_events']) {
        const rows = await tx(
          `update ${table} set company_id = $2 where site_id = $1 and company_id <> $2 returning 1 as one`,
          [siteId, to.companyId],
        );
        moved += rows.length;
      }
      return moved;
    },

    /** A terminal moved to another site (maybe of another company): its rows name the new place. */
    async moveTerminal(
      tx: Tx,
      terminalId: number,
      to: { siteId: number; companyId: number },
    ): Promise<number> {
      let moved = 0;
      for (const table of ['alerts', 'commands', 'shocks', 'connectivity_events']) {
        const rows = await tx(
          `update ${table} set site_id = $2, company_id = $3
            where terminal_id = $1 and (site_id <> $2 or company_id <> $3) returning 1 as one`,
          [terminalId, to.siteId, to.companyId],
        );
        moved += rows.length;
      }
      for (const table of ['telemetry', 'transactions']) {
        const rows = await tx(
          `update ${table} set site_id = $2 where terminal_id = $1 and site_id <> $2 returning 1 as one`,
          [terminalId, to.siteId],
        );
        moved += rows.length;
      }
      return moved;
    },
  };
}
export type PlaceHistoryRepository = ReturnType<typeof createPlaceHistoryRepository>;
