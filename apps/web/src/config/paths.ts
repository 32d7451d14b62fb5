import { ADMIN_ENTITY_NAMES } from '@forecourt/contract/admin-entities';

/** Route paths of the shell (hash routes, without the leading '#'). Log screens are in the contract's LOG_PATHS. */
export const paths = {
  home: '/',
  auth: {
    root: '/auth',
    login: '/auth/login',
    register: '/auth/register',
    logout: '/auth/logout',
    requestPassword: '/auth/request-password',
    resetPassword: '/auth/reset-password',
  },
  agentDashboard: '/agent/dashboard',
  agentDashboardFor: (agentId: number) => `/agent/${agentId}/dashboard`,
  companyDashboard: (companyId: number) => `/company/${companyId}/dashboard`,
  siteDashboard: (companyId: number, siteId: number) => `/company/${companyId}/site/${siteId}/dashboard`,
  /** One terminal's page: details, charts of its readings, its recent alerts and commands. */
  terminal: (siteId: number, terminalId: number) => `/site/${siteId}/terminal/${terminalId}`,
  profile: '/profile',
  /** Contact points, notification policies and the delivery log (agents and company users). */
  notifications: '/notifications',
  /** Availability and alert reports of the user's own scope, their files and schedules. */
  reports: '/reports',
  /** Alert rules (agents and company users). */
  rules: '/rules',
  /** Maintenance windows (every role). */
  maintenance: '/maintenance',
  uiFeatures: (page: string) => `/pages/ui-features/${page}`,
  admin: (page: AdminPage) => `/admin/${page}`,
  /** Software packages and rollouts (agents). */
  software: '/software',
  rollout: (rolloutId: number) => `/software/rollouts/${rolloutId}`,
} as const;

/**
 * The Administration area's pages (agents only), in menu order: one per administered entity of the contract
 * (ADMIN_ENTITIES), then the import and the audit. Each is `pages/admin/<page>-page.tsx`, labelled
 * `ADMIN_<PAGE>` (docs/adding-an-entity.md).
 */
export const ADMIN_PAGES = [...ADMIN_ENTITY_NAMES, 'import', 'audit'] as const;
export type AdminPage = (typeof ADMIN_PAGES)[number];
/** The translation key of an Administration page's menu entry and title: `ADMIN_USERS`. */
export const adminLabel = (page: AdminPage) => `ADMIN_${page.toUpperCase().replaceAll('-', '_')}`;

export const UI_FEATURE_PAGES = [
  'buttons',
  'grid',
  'icons',
  'modals',
  'typography',
  'search-fields',
  'tabs',
] as const;
export type UiFeaturePage = (typeof UI_FEATURE_PAGES)[number];
