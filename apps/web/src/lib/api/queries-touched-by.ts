import { LIVE_CHANGE_KINDS, type LiveChangeKind } from '@forecourt/contract/live';
import { LOG_PATHS, type LogKindKey } from '@forecourt/contract/log-paths';
import { SCOPE_KINDS, type ScopeKind } from '@forecourt/contract/scope';
import type { QueryKey } from '@tanstack/react-query';
import { QUERY_ROOTS, type QueryRoot } from './query-keys.ts';

/** What happened in the fleet, as the live stream names it: the contract's list. */
export const CHANGE_KINDS = LIVE_CHANGE_KINDS;
export type ChangeKind = LiveChangeKind;

/** One change and where it happened; every id that is known narrows the queries to refresh. */
export interface FleetChange {
  kind: ChangeKind;
  agentId?: number;
  companyId?: number;
  siteId?: number;
  terminalId?: number;
  /** The pump's row id (`/api/pump/{id}/`), for pump changes. */
  pumpId?: number;
}

interface Touch {
  root: QueryRoot;
  /** The scope kinds this resource is keyed by (`[root, kind, id, ...]`). */
  scopes: readonly ScopeKind[];
  /** What follows the scope in the key (a log's path): `[root, kind, id, sub]`. */
  sub?: string;
}

const ALL: readonly ScopeKind[] = SCOPE_KINDS;
const FLEET: readonly ScopeKind[] = ['agent', 'company'];
const SITE: readonly ScopeKind[] = ['site'];

/** A log screen's pages, keyed `[logs, kind, id, path]` (lib/api/logs.ts). */
const log = (kind: LogKindKey, scopes: readonly ScopeKind[] = LOG_PATHS[kind].scopes): Touch => ({
  root: QUERY_ROOTS.logs,
  scopes,
  sub: LOG_PATHS[kind].path,
});

/**
 * The table: which resources each kind of change alters. A site's change shows in the lists of its
 * company and its agent too, so those are refreshed with it. Command timelines are keyed by pump or
 * terminal and follow below.
 */
const TOUCHES: Record<ChangeKind, readonly Touch[]> = {
  // Terminal readings: battery, flash drive and environment of the site, and their logs.
  telemetry: [
    { root: QUERY_ROOTS.battery, scopes: SITE },
    { root: QUERY_ROOTS.flashDrives, scopes: SITE },
    { root: QUERY_ROOTS.environment, scopes: SITE },
    log('battery'),
    log('flashdrive'),
    log('environment'),
  ],
  // Alerts, including the hardware issues (the same lists filtered by event type), the bell's list and
  // count, the sites with alerts, and the alert and hardware logs.
  alert: [{ root: QUERY_ROOTS.alerts, scopes: ALL }, log('alert'), log('hardware')],
  // A terminal went on or off line: connectivity lists, site online counts, the maps' markers, the
  // site's terminal list and the connectivity log.
  connectivity: [
    { root: QUERY_ROOTS.connectivity, scopes: FLEET },
    { root: QUERY_ROOTS.sites, scopes: FLEET },
    { root: QUERY_ROOTS.mapTerminals, scopes: ALL },
    { root: QUERY_ROOTS.terminals, scopes: SITE },
    log('connectivity'),
  ],
  // A pump changed state, reported its status, or one of its commands moved: the site's pumps, their
  // status, the pump logs (and the pump's command timeline, below).
  pump: [
    { root: QUERY_ROOTS.pumps, scopes: SITE },
    { root: QUERY_ROOTS.pumpStatus, scopes: SITE },
    log('pump-activation'),
    log('pump-status'),
  ],
  // A reboot command moved: the reboot log (and the terminal's command timeline, below).
  reboot: [log('reboot')],
  transaction: [{ root: QUERY_ROOTS.transactions, scopes: SITE }],
  shock: [{ root: QUERY_ROOTS.shocks, scopes: ALL }, log('shock')],
  // Sites, companies, terminals or pumps added, renamed, moved or decommissioned.
  fleet: [
    { root: QUERY_ROOTS.sites, scopes: ALL },
    { root: QUERY_ROOTS.companies, scopes: ['company'] },
    { root: QUERY_ROOTS.timeZones, scopes: FLEET },
    { root: QUERY_ROOTS.mapTerminals, scopes: ALL },
    { root: QUERY_ROOTS.terminals, scopes: SITE },
    { root: QUERY_ROOTS.pumps, scopes: SITE },
    { root: QUERY_ROOTS.connectivity, scopes: FLEET },
    { root: QUERY_ROOTS.admin, scopes: [] },
  ],
};

/** Every resource some change refreshes: what `event: reset` (or a stream that could not resume) re-reads. */
export const LIVE_QUERY_ROOTS: ReadonlySet<QueryRoot> = new Set([
  ...Object.values(TOUCHES).flatMap((touches) => touches.map((t) => t.root)),
  QUERY_ROOTS.commands,
]);

const positive = (id: number | undefined) => (id !== undefined && id > 0 ? id : undefined);

function idOf(change: FleetChange, kind: ScopeKind): number | undefined {
  return positive(kind === 'agent' ? change.agentId : kind === 'company' ? change.companyId : change.siteId);
}

/**
 * The query-key prefixes to invalidate for a change: `[root, kind, id]` (or `[root, kind, id, sub]`)
 * for every scope of the change the resource is keyed by, or the whole resource `[root]` when the
 * change names none of them.
 *
 *   queriesTouchedBy({ kind: 'alert', agentId: 7, companyId: 11, siteId: 101 })
 *   // [['alerts', 'agent', 7], ['alerts', 'company', 11], ['alerts', 'site', 101],
 *   //  ['logs', 'agent', 7, 'alert/log'], ...]
 */
export function queriesTouchedBy(change: FleetChange): QueryKey[] {
  const keys: QueryKey[] = [];
  for (const { root, scopes, sub } of TOUCHES[change.kind]) {
    const scoped = scopes.flatMap((kind) => {
      const id = idOf(change, kind);
      if (id === undefined) return [];
      return [sub === undefined ? [root, kind, id] : [root, kind, id, sub]];
    });
    keys.push(...(scoped.length ? scoped : [[root]]));
  }
  if (change.kind === 'pump') {
    // The pump's timeline (every pump's when the change names none), and any command being watched.
    const pump = positive(change.pumpId);
    keys.push(pump === undefined ? [QUERY_ROOTS.commands, 'pump'] : [QUERY_ROOTS.commands, 'pump', pump], [
      QUERY_ROOTS.commands,
      'id',
    ]);
  }
  if (change.kind === 'reboot') {
    const terminal = positive(change.terminalId);
    keys.push(
      terminal === undefined
        ? [QUERY_ROOTS.commands, 'terminal']
        : [QUERY_ROOTS.commands, 'terminal', terminal],
      [QUERY_ROOTS.commands, 'id'],
    );
  }
  return keys;
}
