import { hasLog, LOG_PATHS, type LogKindKey } from '@forecourt/contract/log-paths';
import { ADMIN_PAGES, type AdminPage, paths, UI_FEATURE_PAGES } from '../../config/paths.ts';
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

const ADMIN_LABELS: Record<AdminPage, string> = {
  companies: 'ADMIN_COMPANIES',
  sites: 'ADMIN_SITES',
  terminals: 'ADMIN_TERMINALS',
  pumps: 'ADMIN_PUMPS',
  users: 'ADMIN_USERS',
  import: 'ADMIN_IMPORT',
  audit: 'ADMIN_AUDIT',
};

/** The 'Administration' sub-menu: agents only (company and site users get 403 from /api/admin/). */
export function adminMenu(scope: Scope | null): MenuItem | null {
  if (scope?.kind !== 'agent') return null;
  return {
    label: 'MENU_ADMIN',
    icon: 'admin',
    children: ADMIN_PAGES.map((page) => ({
      label: ADMIN_LABELS[page],
      to: paths.admin(page),
      icon: 'admin',
    })),
  };
}

/** Notifications: agents and company users (site users get 403 from its API). */
export function notificationsMenu(scope: Scope | null): MenuItem | null {
  if (scope?.kind !== 'agent' && scope?.kind !== 'company') return null;
  return { label: 'MENU_NOTIFICATIONS', to: paths.notifications, icon: 'notifications' };
}

/** 'Reports': every user with a scope (availability and alerts of that scope, and schedules). */
export function reportsMenu(scope: Scope | null): MenuItem | null {
  return scope ? { label: 'MENU_REPORTS', to: paths.reports, icon: 'reports' } : null;
}

/** The 'Software' entry (packages and rollouts): agents only. */
export function softwareMenu(scope: Scope | null): MenuItem | null {
  if (scope?.kind !== 'agent') return null;
  return { label: 'MENU_SOFTWARE', to: paths.software, icon: 'software' };
}

/**
 * Alert rules (agents and company users; site users only read them, so the page is not offered) and maintenance
 * windows (every role with a scope).
 */
export function operationsMenu(scope: Scope | null): MenuItem[] {
  if (!scope) return [];
  const rules: MenuItem = { label: 'MENU_RULES', to: paths.rules, icon: 'rules' };
  const maintenance: MenuItem = { label: 'MENU_MAINTENANCE', to: paths.maintenance, icon: 'maintenance' };
  return scope.kind === 'site' ? [maintenance] : [rules, maintenance];
}

/**
 * The menu of a user: Dashboard, Profile, their Logs, Rules and Maintenance, Reports, Notifications (agents and company users),
 * Administration and Software (agents), then the UI features.
 */
export function menuFor(scope: Scope | null): MenuItem[] {
  const own = [
    logMenu(scope),
    ...operationsMenu(scope),
    reportsMenu(scope),
    notificationsMenu(scope),
    adminMenu(scope),
    softwareMenu(scope),
  ].filter((m): m is MenuItem => m !== null);
  return own.length ? [MENU_ITEMS[0], MENU_ITEMS[1], ...own, ...MENU_ITEMS.slice(2)] : MENU_ITEMS;
}
