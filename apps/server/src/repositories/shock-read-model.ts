import type { Shock } from '@forecourt/contract/terminals';
import type { shocks } from '../db/schema/events.ts';
import type { terminals } from '../db/schema/org.ts';
import { iso, num } from './read-scope.ts';
import type { Row } from './rows.ts';

/** How shock readings are read and shown (the site's dashboard and the shock log). */

/** The columns of a shock row (`x`) and its terminal (`t`) that a `Shock` needs. */
export const SHOCK_COLUMNS =
  'x.id, x.reading, x.created_at, x.site_id, x.company_id, t.card_acceptor_name, t.terminal_no, x.terminal_id';

export type ShockDbRow = Row<
  typeof shocks,
  'id' | 'reading' | 'created_at' | 'site_id' | 'company_id' | 'terminal_id'
> &
  Row<typeof terminals, 'card_acceptor_name' | 'terminal_no'>;

export const toShock = (r: ShockDbRow): Shock => ({
  id: num(r.id),
  reading: Number(r.reading),
  created_at: iso(r.created_at)!,
  terminal: {
    site: r.site_id,
    card_acceptor_name: r.card_acceptor_name,
    terminal_id: r.terminal_no,
    id: r.terminal_id,
  },
  company_id: r.company_id,
});
