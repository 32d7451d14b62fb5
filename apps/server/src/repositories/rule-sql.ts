/**
 * SQL shared by the alert rules and the maintenance windows (docs/rules-and-maintenance.md): whether a stored
 * target (the `scope_kind`, `scope_id`, `tags` columns of a rule or a window) reaches a terminal, and whether a
 * window covers a terminal's site at an instant (`maintenance_covers`, created by migration 0009: one-off, or weekly
 * in the site's own time zone, DST-correct).
 */

/** The stored target of alias `x` reaches the live terminal of alias `t`. */
export const targetReachesSql = (x: string, t: string) =>
  `(${t}.decommissioned_at is null and ${t}.tags @> ${x}.tags and
    case ${x}.scope_kind when 'agent' then ${t}.agent_id = ${x}.scope_id
                         when 'company' then ${t}.company_id = ${x}.scope_id
                         when 'site' then ${t}.site_id = ${x}.scope_id
                         else ${t}.id = ${x}.scope_id end)`;

/** Window `w` covers, at `at` (an SQL expression), a terminal whose site is in time zone `tz` (an SQL expression). */
export const windowCoversSql = (w: string, tz: string, at: string) =>
  `maintenance_covers(${w}.starts_at, ${w}.ends_at, ${w}.weekdays, ${w}.start_local, ${w}.duration_min, ${tz}, ${at})`;

/**
 * Who may read a rule or a window (alias `x`): what lies inside the caller's scope, and what reaches into it from
 * above (a rule of the whole agent reaches a site user's site). Parameters: agent id (or null), company ids, site ids.
 */
export const visibleToSql = (x: string, agent: string, companies: string, sites: string) =>
  `(${x}.agent_id = ${agent}
    or ${x}.company_id = any(${companies}::int[])
    or ${x}.site_id = any(${sites}::int[])
    or (${x}.scope_kind = 'company' and ${x}.company_id in (select company_id from sites where id = any(${sites}::int[])))
    or (${x}.scope_kind = 'agent' and ${x}.agent_id in (
          select agent_id from companies where id = any(${companies}::int[])
          union select agent_id from sites where id = any(${sites}::int[]))))`;
