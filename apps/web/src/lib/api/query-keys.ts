import type { Scope } from '../scope.ts';

/**
 * The first element of every query key: one per resource the console reads. Keys are hierarchical,
 * `[resource, scope kind, scope id, ...what narrows it]`, so one prefix reaches every query of a
 * resource (`[resource]`) or of one agent, company or site (`[resource, kind, id]`). The factories in
 * `lib/api/*.ts` and `widgets/<name>/api/` build their keys with `scopedKey`; `queriesTouchedBy`
 * maps a change in the fleet to the prefixes to refresh.
 */
export const QUERY_ROOTS = {
  admin: 'admin',
  alerts: 'alerts',
  apiKeys: 'api-keys',
  battery: 'battery',
  commands: 'commands',
  companies: 'companies',
  config: 'config',
  connectivity: 'connectivity',
  environment: 'environment',
  flashDrives: 'flash-drives',
  geo: 'geo',
  logs: 'logs',
  maintenance: 'maintenance',
  mapTerminals: 'map-terminals',
  pumpStatus: 'pump-status',
  pumps: 'pumps',
  rules: 'rules',
  shocks: 'shocks',
  sites: 'sites',
  telemetry: 'telemetry',
  terminals: 'terminals',
  timeZones: 'time-zones',
  transactions: 'transactions',
  weather: 'weather',
} as const;

export type QueryRoot = (typeof QUERY_ROOTS)[keyof typeof QUERY_ROOTS];

/** `[resource, kind, id]`: the prefix of every query of one resource for one agent, company or site. */
export const scopedKey = <R extends QueryRoot>(root: R, scope: Scope) =>
  [root, scope.kind, scope.id] as const;
