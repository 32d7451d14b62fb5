import type { ScopeKind } from '@forecourt/contract/scope';

/** Which part of the fleet a page or widget looks at: one agent, one company or one site. */
export interface Scope<K extends ScopeKind = ScopeKind> {
  kind: K;
  id: number;
}

/** Reads that exist for agents and companies only (sites online, connectivity, time zones, fleet map). */
export type FleetScope = Scope<'agent' | 'company'>;

/** Reads that exist for one site only (pumps, terminal readings, transactions). */
export type SiteScope = Scope<'site'>;

/** A scope names something only with an id above 0; widgets do not ask for anything else. */
export const isValidScope = (scope: Scope | null | undefined): scope is Scope =>
  !!scope && Number.isInteger(scope.id) && scope.id > 0;
