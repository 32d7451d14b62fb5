import { SCOPE_KINDS, type ScopeKind } from './scope.ts';

/**
 * Where each log lives (docs/api-logs.md): the screen is `/{scope}/{id}/{path}/` (a hash route of the console,
 * or the same plain path) and its rows come from the API path of the same name under `/api`. Widgets build
 * their links from this table, the console's router its routes, the server its log routes. `linkSlash`: the
 * widgets' link ends in '/' (the product's link list writes some that way; both forms reach the screen).
 */
export const LOG_PATHS = {
  alert: { path: 'alert/log', scopes: SCOPE_KINDS, linkSlash: true },
  connectivity: { path: 'connectivity/log', scopes: SCOPE_KINDS, linkSlash: false },
  'pump-activation': { path: 'pump/activation/log', scopes: SCOPE_KINDS, linkSlash: true },
  'pump-status': { path: 'pump/status/log', scopes: ['site'], linkSlash: false },
  shock: { path: 'shock/alert/log', scopes: SCOPE_KINDS, linkSlash: false },
  battery: { path: 'terminal/battery/log', scopes: ['site'], linkSlash: false },
  environment: { path: 'terminal/environment/log', scopes: ['site'], linkSlash: false },
  flashdrive: { path: 'terminal/flashdrive/log', scopes: ['site'], linkSlash: false },
  hardware: { path: 'terminal/hardware/log', scopes: SCOPE_KINDS, linkSlash: true },
  reboot: { path: 'terminal/reboot/log', scopes: SCOPE_KINDS, linkSlash: true },
} as const satisfies Record<string, { path: string; scopes: readonly ScopeKind[]; linkSlash: boolean }>;

export type LogKindKey = keyof typeof LOG_PATHS;
export const LOG_KIND_KEYS = Object.keys(LOG_PATHS) as LogKindKey[];

export function hasLog(kind: LogKindKey, scope: ScopeKind): boolean {
  return (LOG_PATHS[kind].scopes as readonly ScopeKind[]).includes(scope);
}

/** The widgets' link to a log of one scope: `/site/3/pump/status/log`, `/agent/1/alert/log/`. */
export function logPath(kind: LogKindKey, scope: ScopeKind, id: number | string): string {
  return `/${scope}/${id}/${LOG_PATHS[kind].path}${LOG_PATHS[kind].linkSlash ? '/' : ''}`;
}

/** The API path a log screen reads: `/api/site/3/pump/status/log/`. */
export function logApiPath(kind: LogKindKey, scope: ScopeKind, id: number | string): string {
  return `/api/${scope}/${id}/${LOG_PATHS[kind].path}/`;
}

const companySite = (companyId: number | string, siteId: number | string) =>
  `company/${companyId}/site/${siteId}/${LOG_PATHS.hardware.path}/`;

/** The company dashboard's link to the hardware log of one of its sites: `/company/1/site/3/terminal/hardware/log/`. */
export function companySiteHardwareLogPath(companyId: number | string, siteId: number | string): string {
  return `/${companySite(companyId, siteId)}`;
}

/** The API path of that log: `/api/company/1/site/3/terminal/hardware/log/`. */
export function companySiteHardwareLogApiPath(companyId: number | string, siteId: number | string): string {
  return `/api/${companySite(companyId, siteId)}`;
}

/** Every screen pattern (`{scope}/:{scope}Id/{path}`) with the log it shows, for a router. */
export function logRoutePatterns(): Array<readonly [pattern: string, kind: LogKindKey]> {
  return [
    ...LOG_KIND_KEYS.flatMap((kind) =>
      LOG_PATHS[kind].scopes.map((scope) => [`${scope}/:${scope}Id/${LOG_PATHS[kind].path}`, kind] as const),
    ),
    ['company/:companyId/site/:siteId/terminal/hardware/log', 'hardware'] as const,
  ];
}
