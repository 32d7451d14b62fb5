import { LIVE_CHANGE_KINDS, type LiveChangeKind } from '@forecourt/contract/live';
import { LOG_PATHS, type LogKindKey } from '@forecourt/contract/log-paths';
import { SCOPE_KINDS, type ScopeKind } from '@forecourt/contract/scope';
import type { QueryKey } from '@tanstack/react-query';
import { WIDGETS } from '../../widgets/registry.ts';
import type { WidgetDescriptor } from '../widget-descriptor.ts';
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

/**
 * What the console reads outside the dashboards' widgets and each kind of change alters: the header's bell (the
 * alerts' list and count), the dashboards' headings and the log screens (site, company details; the time zones a
 * log screen shows dates in) and the administration's lists. The widgets' own reads come from their descriptors.
 */
const SHELL_TOUCHES: Partial<Record<ChangeKind, readonly Touch[]>> = {
  alert: [{ root: QUERY_ROOTS.alerts, scopes: ALL }],
  fleet: [
    { root: QUERY_ROOTS.sites, scopes: ALL },
    { root: QUERY_ROOTS.companies, scopes: ['company'] },
    { root: QUERY_ROOTS.timeZones, scopes: FLEET },
    { root: QUERY_ROOTS.admin, scopes: [] },
    { root: QUERY_ROOTS.rules, scopes: [] },
    { root: QUERY_ROOTS.maintenance, scopes: [] },
  ],
};

/** A log screen's pages, keyed `[logs, kind, id, path]` (lib/api/logs.ts). */
const log = (kind: LogKindKey): Touch => ({
  root: QUERY_ROOTS.logs,
  scopes: LOG_PATHS[kind].scopes,
  sub: LOG_PATHS[kind].path,
});

/**
 * The table: which resources each kind of change alters, the shell's above and every widget's (its descriptor's
 * reads and log, widgets/<name>/widget.ts), one entry per resource with the union of their scope kinds. A site's
 * change shows in the lists of its company and its agent too, so those are refreshed with it. Command timelines
 * are keyed by pump or terminal and follow below.
 */
export function touchesOf(widgets: readonly WidgetDescriptor[]): Record<ChangeKind, readonly Touch[]> {
  const table = Object.fromEntries(CHANGE_KINDS.map((kind) => [kind, [] as Touch[]])) as Record<
    ChangeKind,
    Touch[]
  >;
  const add = (kind: ChangeKind, touch: Touch) => {
    const same = table[kind].find((t) => t.root === touch.root && t.sub === touch.sub);
    if (!same) table[kind].push({ ...touch, scopes: [...touch.scopes] });
    else same.scopes = [...new Set([...same.scopes, ...touch.scopes])];
  };
  for (const kind of CHANGE_KINDS) for (const touch of SHELL_TOUCHES[kind] ?? []) add(kind, touch);
  for (const widget of widgets) {
    for (const read of widget.reads) for (const kind of read.on) add(kind, read);
    if (widget.log) for (const kind of widget.log.on) add(kind, log(widget.log.kind));
  }
  return table;
}

const TOUCHES = touchesOf(WIDGETS);

/** Every resource some change refreshes: what `event: reset` (or a stream that could not resume) re-reads. */
export const LIVE_QUERY_ROOTS: ReadonlySet<QueryRoot> = new Set([
  ...Object.values(TOUCHES).flatMap((touches) => touches.map((t) => t.root)),
  QUERY_ROOTS.commands,
  QUERY_ROOTS.telemetry,
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
  if (change.kind === 'telemetry') {
    // The terminal page's charts: only what arrived since their range (lib/api/telemetry-history.ts).
    const terminal = positive(change.terminalId);
    keys.push(
      terminal === undefined ? [QUERY_ROOTS.telemetry, 'tail'] : [QUERY_ROOTS.telemetry, 'tail', terminal],
    );
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
