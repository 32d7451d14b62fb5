import { SCOPE_KINDS, type ScopeKind } from '@forecourt/contract/scope';
import type { QueryKey } from '@tanstack/react-query';
import { QUERY_ROOTS, type QueryRoot } from './query-keys.ts';

/** What happened in the fleet, as a live-updates feed would name it. */
export const CHANGE_KINDS = [
  'telemetry',
  'alert',
  'connectivity',
  'pump',
  'reboot',
  'transaction',
  'shock',
  'fleet',
] as const;
export type ChangeKind = (typeof CHANGE_KINDS)[number];

/** One change and where it happened; every id that is known narrows the queries to refresh. */
export interface FleetChange {
  kind: ChangeKind;
  agentId?: number;
  companyId?: number;
  siteId?: number;
  terminalId?: number;
}

interface Touch {
  root: QueryRoot;
  /** The scope kinds this resource is keyed by (`[root, kind, id, ...]`). */
  scopes: readonly ScopeKind[];
}

const ALL: readonly ScopeKind[] = SCOPE_KINDS;
const FLEET: readonly ScopeKind[] = ['agent', 'company'];
const SITE: readonly ScopeKind[] = ['site'];

/**
 * The table: which resources each kind of change alters. A site's change shows in the lists of its
 * company and its agent too, so those are refreshed with it.
 */
const TOUCHES: Record<ChangeKind, readonly Touch[]> = {
  // Terminal readings: battery, flash drive and environment of the site.
  telemetry: [
    { root: QUERY_ROOTS.battery, scopes: SITE },
    { root: QUERY_ROOTS.flashDrives, scopes: SITE },
    { root: QUERY_ROOTS.environment, scopes: SITE },
  ],
  // Alerts, including the hardware issues (the same lists filtered by event type) and the bell.
  alert: [{ root: QUERY_ROOTS.alerts, scopes: ALL }],
  // A terminal went on or off line: connectivity lists, site online counts and the maps' markers.
  connectivity: [
    { root: QUERY_ROOTS.connectivity, scopes: FLEET },
    { root: QUERY_ROOTS.sites, scopes: FLEET },
    { root: QUERY_ROOTS.mapTerminals, scopes: ALL },
  ],
  // A pump changed state or reported its status: the site's pumps, their status and command timelines.
  pump: [
    { root: QUERY_ROOTS.pumps, scopes: SITE },
    { root: QUERY_ROOTS.pumpStatus, scopes: SITE },
  ],
  // Reboot commands: only the command timelines (below), keyed by terminal.
  reboot: [],
  transaction: [{ root: QUERY_ROOTS.transactions, scopes: SITE }],
  shock: [{ root: QUERY_ROOTS.shocks, scopes: ALL }],
  // Sites, companies or terminals added, renamed or moved.
  fleet: [
    { root: QUERY_ROOTS.sites, scopes: ALL },
    { root: QUERY_ROOTS.companies, scopes: ['company'] },
    { root: QUERY_ROOTS.timeZones, scopes: FLEET },
    { root: QUERY_ROOTS.mapTerminals, scopes: ALL },
    { root: QUERY_ROOTS.terminals, scopes: SITE },
    { root: QUERY_ROOTS.connectivity, scopes: FLEET },
  ],
};

function idOf(change: FleetChange, kind: ScopeKind): number | undefined {
  const id = kind === 'agent' ? change.agentId : kind === 'company' ? change.companyId : change.siteId;
  return id !== undefined && id > 0 ? id : undefined;
}

/**
 * The query-key prefixes to invalidate for a change: `[root, kind, id]` for every scope of the change
 * the resource is keyed by, or the whole resource `[root]` when the change names none of them.
 *
 *   queriesTouchedBy({ kind: 'alert', agentId: 7, companyId: 11, siteId: 101 })
 *   // [['alerts', 'agent', 7], ['alerts', 'company', 11], ['alerts', 'site', 101]]
 */
export function queriesTouchedBy(change: FleetChange): QueryKey[] {
  const keys: QueryKey[] = [];
  for (const { root, scopes } of TOUCHES[change.kind]) {
    const scoped = scopes.flatMap((kind) => {
      const id = idOf(change, kind);
      return id === undefined ? [] : [[root, kind, id] as const];
    });
    keys.push(...(scoped.length ? scoped : [[root] as const]));
  }
  if (change.kind === 'pump') {
    // Pump ids are not part of a change: every pump timeline, and the commands being watched.
    keys.push([QUERY_ROOTS.commands, 'pump'], [QUERY_ROOTS.commands, 'id']);
  }
  if (change.kind === 'reboot') {
    const terminal = change.terminalId !== undefined && change.terminalId > 0 ? change.terminalId : undefined;
    keys.push(
      terminal === undefined
        ? [QUERY_ROOTS.commands, 'terminal']
        : [QUERY_ROOTS.commands, 'terminal', terminal],
      [QUERY_ROOTS.commands, 'id'],
    );
  }
  return keys;
}
