import type { Target } from '@forecourt/contract/targets';
import { num } from './read-scope.ts';
import { storedTargetReachesSql } from './target-sql.ts';

/**
 * What the alert rules and the maintenance windows share (docs/rules-and-maintenance.md): whether a stored target
 * (the `scope_kind`, `scope_id`, `tags` columns of a rule or a window) reaches a terminal (target-sql.ts), whether a
 * window covers a terminal's site at an instant (`maintenance_covers`, created by migration 0009: one-off, or weekly
 * in the site's own time zone, DST-correct), who may read them, and their rows' target, place, change and audit.
 */

/** The stored target of alias `x` (its `scope_kind`, `scope_id`, `tags`) reaches the live terminal of alias `t`. */
export const targetReachesSql = (x: string, t: string) =>
  storedTargetReachesSql({ kind: `${x}.scope_kind`, id: `${x}.scope_id`, tags: `${x}.tags` }, t);

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

/** Where a target's scope sits: copied onto a rule or a window so reads by scope are column comparisons. */
export interface Place {
  agentId: number;
  companyId: number | null;
  siteId: number | null;
}

/** Who writes a rule or a window: recorded on it and in the audit log. */
export interface RuleActor {
  userId: number;
  username: string;
}

/** The columns of a stored target and its place, as a rule's or a window's row has them. */
export interface StoredTargetRow {
  scope_kind: string;
  scope_id: number;
  tags: string[];
  agent_id: number;
  company_id: number | null;
  site_id: number | null;
}

/** A row's target in the API's shape, and the place copied from its scope. */
export const storedTargetOf = (r: StoredTargetRow): { target: Target; place: Place } => ({
  target: {
    scope: { kind: r.scope_kind as Target['scope']['kind'], id: num(r.scope_id) },
    tags: r.tags ?? [],
  },
  place: { agentId: r.agent_id, companyId: r.company_id, siteId: r.site_id },
});

/** A place as SQL parameters, in the order of the columns `agent_id`, `company_id`, `site_id`. */
export const placeParams = (p: Place) => [p.agentId, p.companyId, p.siteId];

/**
 * A target as written (scope, tags and the place copied from the scope) as SQL parameters, in the order of the
 * columns `scope_kind`, `scope_id`, `tags`, `agent_id`, `company_id`, `site_id`.
 */
export const targetParams = (f: { scopeKind: string; scopeId: number; tags: string[]; place: Place }) => [
  f.scopeKind,
  f.scopeId,
  f.tags,
  ...placeParams(f.place),
];
