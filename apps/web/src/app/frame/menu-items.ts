import { hasLog, LOG_PATHS, type LogKindKey } from '@forecourt/contract/log-paths';
import { ADMIN_PAGES, adminLabel, paths, UI_FEATURE_PAGES } from '../../config/paths.ts';
import type { Scope } from '../../lib/scope.ts';

export interface MenuItem {
  /** Translation key of the label. */
  label: string;
  to?: string;
  icon:
    | 'dashboard'
    | 'profile'
    | 'notifications'
    | 'logs'
    | 'ui'
    | 'admin'
    | 'reports'
    | 'software'
    | 'rules'
    | 'maintenance';
  children?: MenuItem[];
}

const UI_LABELS: Record<(typeof UI_FEATURE_PAGES)[number], string> = {
  buttons: 'UI_BUTTONS',
  grid: 'UI_GRID',
  icons: 'UI_ICONS',
  modals: 'UI_MODALS',
  typography: 'UI_TYPOGRAPHY',
  'search-fields': 'UI_SEARCH_FIELDS',
  tabs: 'UI_TABS',
};

/** The menu sidebar, including the demo sub-menu of UI-feature pages. */
export const MENU_ITEMS: MenuItem[] = [
  { label: 'MENU_DASHBOARD', to: '/agent/dashboard', icon: 'dashboard' },
  { label: 'MENU_PROFILE', to: '/profile', icon: 'profile' },
  {
    label: 'MENU_UI_FEATURES',
    icon: 'ui',
    children: UI_FEATURE_PAGES.map((page) => ({
      label: UI_LABELS[page],
      to: `/pages/ui-features/${page}`,
      icon: 'ui',
    })),
  },
];

const LOG_LABELS: Record<LogKindKey, string> = {
  alert: 'LOG_TITLE_ALERT',
  connectivity: 'LOG_TITLE_CONNECTIVITY',
  hardware: 'LOG_TITLE_HARDWARE',
  reboot: 'LOG_TITLE_REBOOT',
  shock: 'LOG_TITLE_SHOCK',
  'pump-activation': 'LOG_TITLE_PUMP_ACTIVATION',
  'pump-status': 'LOG_TITLE_PUMP_STATUS',
  battery: 'LOG_TITLE_BATTERY',
  environment: 'LOG_TITLE_ENVIRONMENT',
  flashdrive: 'LOG_TITLE_FLASHDRIVE',
};

/**
 * The 'Logs' sub-menu: every log screen that exists for the user's own scope (the agent's, else the
 * first company's, else the first site's — the same source as the notifications), in the menu order of
 * LOG_LABELS. None for a user without any scope.
 */
export function logMenu(scope: Scope | null): MenuItem | null {
  if (!scope) return null;
  const children = (Object.keys(LOG_LABELS) as LogKindKey[])
    .filter((kind) => hasLog(kind, scope.kind))
    .map((kind) => ({
      label: LOG_LABELS[kind],
      to: `/${scope.kind}/${scope.id}/${LOG_PATHS[kind].path}`,
      icon: 'logs' as const,
    }));
  return { label: 'MENU_LOGS', icon: 'logs', children };
}

/** The 'Administration' sub-menu: agents only (company and site users get 403 from /api/admin/). */
export function adminMenu(scope: Scope | null): MenuItem | null {
  if (scope?.kind !== 'agent') return null;
  return {
    label: 'MENU_ADMIN',
    icon: 'admin',
    children: ADMIN_PAGES.map((page) => ({
      label: adminLabel(page),
      to: paths.admin(page),
      icon: 'admin',
    })),
  };
}

/**
 * The pages of the menu's first level after the Logs, in menu order, each for the roles that may use it: alert
 * rules (site users only read them, so the page is not offered to them), maintenance windows, reports, notifications
 * (site users get 403 from their API) and software (agents only).
 */
const PAGES: [MenuItem, Scope['kind'][]][] = [
  [{ label: 'MENU_RULES', to: paths.rules, icon: 'rules' }, ['agent', 'company']],
  [{ label: 'MENU_MAINTENANCE', to: paths.maintenance, icon: 'maintenance' }, ['agent', 'company', 'site']],
  [{ label: 'MENU_REPORTS', to: paths.reports, icon: 'reports' }, ['agent', 'company', 'site']],
  [{ label: 'MENU_NOTIFICATIONS', to: paths.notifications, icon: 'notifications' }, ['agent', 'company']],
];
const SOFTWARE: MenuItem = { label: 'MENU_SOFTWARE', to: paths.software, icon: 'software' };

/**
 * The menu of a user: Dashboard, Profile, their Logs, Rules, Maintenance, Reports, Notifications, Administration and
 * Software (agents), then the UI features; each page only for the roles that may use it.
 */
export function menuFor(scope: Scope | null): MenuItem[] {
  if (!scope) return MENU_ITEMS;
  const own = [
    logMenu(scope),
    ...PAGES.filter(([, kinds]) => kinds.includes(scope.kind)).map(([item]) => item),
    adminMenu(scope),
    scope.kind === 'agent' ? SOFTWARE : null,
  ].filter((m): m is MenuItem => m !== null);
  return [MENU_ITEMS[0], MENU_ITEMS[1], ...own, ...MENU_ITEMS.slice(2)];
}
