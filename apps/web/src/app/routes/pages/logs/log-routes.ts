/**
 * Where each log screen lives (the seed's "Links used by widgets"): the route is the scope, its id and
 * the log's path. Kept apart from the screens so the route table stays small; the screens load lazily.
 */
export type LogKindKey =
  | 'alert'
  | 'connectivity'
  | 'pump-activation'
  | 'pump-status'
  | 'shock'
  | 'battery'
  | 'environment'
  | 'flashdrive'
  | 'hardware'
  | 'reboot';

type Scope = 'agent' | 'company' | 'site';

export const LOG_KIND_PATHS: Record<LogKindKey, { path: string; scopes: readonly Scope[] }> = {
  alert: { path: 'alert/log', scopes: ['agent', 'company', 'site'] },
  connectivity: { path: 'connectivity/log', scopes: ['agent', 'company', 'site'] },
  'pump-activation': { path: 'pump/activation/log', scopes: ['agent', 'company', 'site'] },
  'pump-status': { path: 'pump/status/log', scopes: ['site'] },
  shock: { path: 'shock/alert/log', scopes: ['agent', 'company', 'site'] },
  battery: { path: 'terminal/battery/log', scopes: ['site'] },
  environment: { path: 'terminal/environment/log', scopes: ['site'] },
  flashdrive: { path: 'terminal/flashdrive/log', scopes: ['site'] },
  hardware: { path: 'terminal/hardware/log', scopes: ['agent', 'company', 'site'] },
  reboot: { path: 'terminal/reboot/log', scopes: ['agent', 'company', 'site'] },
};

/** Every log route pattern with the log it shows: `site/:siteId/pump/status/log` → pump-status. */
export const LOG_ROUTES: ReadonlyArray<readonly [string, LogKindKey]> = [
  ...(Object.entries(LOG_KIND_PATHS) as Array<[LogKindKey, (typeof LOG_KIND_PATHS)[LogKindKey]]>).flatMap(
    ([kind, { path, scopes }]) => scopes.map((scope) => [`${scope}/:${scope}Id/${path}`, kind] as const),
  ),
  ['company/:companyId/site/:siteId/terminal/hardware/log', 'hardware'],
];
