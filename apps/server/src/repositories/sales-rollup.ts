import type { QueryFn } from '../db/client.ts';

/** How far back the `no_sales` baseline looks (four weeks), and a day more so the oldest hour is whole. */
export const SALES_HISTORY_DAYS = 29;

/**
 * Rolls up transactions already stored (a seeded history, or one imported before rules existed) into the
 * `no_sales` baseline's tables, set-based: per terminal and local hour of its site (`sales_hours`), and each
 * terminal's last sale (`sales_terminals`). New transactions are rolled up as they arrive (`recordSales` of
 * rule-repository.ts); this one recounts the hours it covers, so running it twice changes nothing.
 * `terminals` limits it to an id range. Answers the number of terminal-hours written.
 */
export async function rollUpSalesHistory(
  q: QueryFn,
  now: Date,
  terminals: { lo: number; hi: number } | null = null,
): Promise<number> {
  const since = new Date(now.getTime() - SALES_HISTORY_DAYS * 86_400_000);
  const range = terminals ? 'and x.terminal_id between $2 and $3' : '';
  const params = terminals ? [since, terminals.lo, terminals.hi] : [since];
  const [hours] = await q<{ n: number | string }>(
    `with ins as (
       insert into sales_hours (terminal_id, local_hour, n)
       select x.terminal_id, date_trunc('hour', x.at at time zone s.timezone), count(*)
         from transactions x join sites s on s.id = x.site_id
        where x.at >= $1 ${range}
        group by 1, 2
        order by 1, 2
       on conflict (terminal_id, local_hour) do update set n = excluded.n
       returning 1)
     select count(*) as n from ins`,
    params,
  );
  await q(
    `insert into sales_terminals (terminal_id, last_at)
     select x.terminal_id, max(x.at) from transactions x
      where x.at >= $1 ${range}
      group by 1
      order by 1
     on conflict (terminal_id) do update
       set last_at = greatest(coalesce(sales_terminals.last_at, '-infinity'::timestamptz), excluded.last_at)`,
    params,
  );
  return Number(hours?.n ?? 0);
}
