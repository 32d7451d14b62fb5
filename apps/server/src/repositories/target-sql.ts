import type { Target, TargetScopeKind } from '@forecourt/contract/targets';
import type { Params } from './read-scope.ts';

/**
 * SQL of targets (docs/targets.md): the live terminals inside a scope carrying every tag of the target. Repositories
 * that aim at a target (rules, maintenance windows, notification policies, rollouts, bulk commands) embed these
 * fragments, so a target is evaluated when the statement runs: a terminal tagged or added later is in, a
 * decommissioned one is out. The terminal table is aliased `alias` (default `t`).
 */

/** The terminals column a scope kind compares with. */
const SCOPE_COLUMN: Record<TargetScopeKind, string> = {
  agent: 'agent_id',
  company: 'company_id',
  site: 'site_id',
  terminal: 'id',
};

/**
 * A predicate on the terminal `alias`: true when it is one of the target's terminals. The target's values go in as
 * parameters of `p` (e.g. `select ... from terminals t where ${targetWhereSql(target, p)}`). It uses the scope's
 * index and, with tags, the tags' GIN index.
 */
export function targetWhereSql(target: Target, p: Params, alias = 't'): string {
  const parts = [
    `${alias}.decommissioned_at is null`,
    `${alias}.${SCOPE_COLUMN[target.scope.kind]} = ${p.add(target.scope.id)}::int`,
  ];
  if (target.tags.length) parts.push(`${alias}.tags @> ${p.add(target.tags)}::text[]`);
  return `(${parts.join(' and ')})`;
}

/** A subquery answering the ids of the target's terminals: `terminal_id in (${targetTerminalIdsSql(target, p)})`. */
export function targetTerminalIdsSql(target: Target, p: Params): string {
  return `select tt.id from terminals tt where ${targetWhereSql(target, p, 'tt')}`;
}

/**
 * A target stored in a row, as SQL expressions of its scope kind, scope id (an integer) and tags (a text[]), reaches
 * the live terminal `alias`: the SQL function `target_reaches` (migration target_predicate), the one definition of
 * the stored-target predicate, which the alerts' maintenance trigger calls too. It is a single SQL expression, so
 * the planner inlines it: a statement sees the comparison itself, as if written in place.
 */
export function storedTargetReachesSql(
  target: { kind: string; id: string; tags: string },
  alias = 't',
): string {
  return `target_reaches(${target.kind}, ${target.id}, ${target.tags}, ${alias}.id, ${alias}.site_id,
    ${alias}.company_id, ${alias}.agent_id, ${alias}.tags, ${alias}.decommissioned_at)`;
}

/**
 * The same for a target stored as jsonb (`expr`, e.g. `r.target`, in the API's shape
 * `{"scope": {"kind", "id"}, "tags": [...]}`; no `tags` means every terminal of the scope). Agrees with
 * targetWhereSql (tested).
 */
export function storedTargetMatchSql(expr: string, alias = 't'): string {
  return storedTargetReachesSql(
    {
      kind: `(${expr})->'scope'->>'kind'`,
      id: `((${expr})->'scope'->>'id')::int`,
      tags: `array(select jsonb_array_elements_text(coalesce((${expr})->'tags', '[]'::jsonb)))`,
    },
    alias,
  );
}
