import type { AdminChild } from '@forecourt/contract/admin';
import { num } from '../repositories/read-scope.ts';
import { conflicting, type DomainError, missing, notYours } from './domain-errors.ts';

/**
 * The rules of fleet administration (docs/product.md#fleet-administration), each one function with its test in
 * fleet-rules.test.ts. The pump carrier rule is repositories/pump-carrier.ts (its SQL and its in-memory form).
 */

/**
 * A row the agent may administer: a live one of its own. Unknown or decommissioned is not found (`entity` names
 * it), another agent's is forbidden.
 */
export function ownLive<T extends { agent_id: number | null; decommissioned_at?: unknown }>(
  row: T | null,
  agentId: number,
  entity: string,
  id: number,
): T {
  if (!row || (row.decommissioned_at !== null && row.decommissioned_at !== undefined))
    throw missing(entity, id);
  if (row.agent_id === null || num(row.agent_id) !== agentId) throw notYours();
  return row;
}

/** How a child is named in a conflict. */
export const childLabel = {
  site: (r: { title: string; number: string }) => `${r.title} (${r.number})`,
  terminal: (r: { terminal_no: string }) => r.terminal_no,
  pump: (r: { pump_no: number }) => `pump ${r.pump_no}`,
};

/** The pumps of a list as children (of a site, or carried by a terminal). */
export const pumpChildren = (pumps: ReadonlyArray<{ id: number; pump_no: number }>): AdminChild[] =>
  pumps.map((p) => ({ entity: 'pump', id: num(p.id), label: childLabel.pump(p) }));

/**
 * A place cannot be decommissioned (or a terminal moved) while it has live children: the conflict names the first
 * 20 of them and counts the rest; null when there are none.
 */
export function blockedByChildren(what: string, children: AdminChild[]): DomainError | null {
  if (!children.length) return null;
  const names = children
    .slice(0, 20)
    .map((c) => `${c.entity} ${c.id} ${c.label}`)
    .join(', ');
  const more = children.length > 20 ? ` and ${children.length - 20} more` : '';
  return conflicting(`${what} still has live children: ${names}${more}. Decommission them first.`, children);
}

/** A site cannot have pumps until one of its terminals can carry their commands. */
export const noCarrier = (siteId: number) =>
  conflicting(`Site ${siteId} has no terminal to carry pump commands: create a terminal first.`);

/** A change's fields over the current ones: fields left out (undefined) keep their value. */
export function patched<T extends object>(current: T, body: Partial<T>): T {
  return { ...current, ...Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined)) };
}

/** Whether a change changes anything (the same fields, the same values). */
export const unchanged = (before: unknown, after: unknown) =>
  JSON.stringify(before) === JSON.stringify(after);

/** Whether the agent may use a row as a reference (a site's company, a terminal's site): a live one of its own. */
export const isOwnLive = (
  row: { agent_id: number | null; decommissioned_at?: unknown } | null,
  agentId: number,
) =>
  row !== null &&
  (row.decommissioned_at === null || row.decommissioned_at === undefined) &&
  row.agent_id !== null &&
  num(row.agent_id) === agentId;
