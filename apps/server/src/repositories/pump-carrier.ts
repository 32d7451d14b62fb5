/**
 * The pump carrier (docs/product.md#fleet-administration): one live terminal of a site carries the commands of all
 * its pumps. It is the site's pump controller, else its oldest live terminal (which then becomes the controller); a
 * site's first terminal takes control; a terminal that leaves its site (moved or decommissioned) hands it on.
 *
 * The rule's one definition, in the two forms its users need: `carrierSql` for the set-based writes of the
 * administration, the import and the large seed, `carrierOf` for the demo fleet built in memory. Both take the
 * site's live terminals controller first, then oldest first; pump-carrier.test.ts runs them on the same terminals.
 */

/**
 * The id of the terminal that carries the pumps of the site `siteId` (an SQL expression), leaving out the terminal
 * `except` (one about to leave the site), or null when the site has no live terminal. A scalar subquery.
 */
export function carrierSql(siteId: string, except = '0'): string {
  return `(select c.id from terminals c
            where c.site_id = ${siteId} and c.decommissioned_at is null and c.id <> ${except}
            order by c.pump_controller desc, c.id limit 1)`;
}

/** What `carrierOf` reads of a terminal. */
export interface CarrierCandidate {
  id: number;
  pumpController: boolean;
  decommissioned?: boolean;
}

/** Of one site's terminals, the one that carries its pumps (`carrierSql` in memory), or null. */
export function carrierOf<T extends CarrierCandidate>(terminals: readonly T[]): T | null {
  let best: T | null = null;
  for (const t of terminals) {
    if (t.decommissioned) continue;
    if (
      best === null ||
      (t.pumpController && !best.pumpController) ||
      (t.pumpController === best.pumpController && t.id < best.id)
    )
      best = t;
  }
  return best;
}
