import type { ComponentType } from 'react';
import type { AdminPage } from '../../config/paths.ts';

/**
 * The code of every signed-in page that is not a dashboard or a log, by route. The signed-in chunk, which every
 * dashboard loads, imports this small module only when such a page is first opened: the lists of files each page
 * preloads live here, not in the dashboards' first load (the agent dashboard's 250 KB budget, decision 0006).
 */
export const PAGE_LOADERS = {
  profile: () => import('./pages/profile/profile-page.tsx'),
  notifications: () => import('./pages/notifications/notifications-page.tsx'),
  'site/:siteId/terminal/:terminalId': () => import('./pages/terminal/terminal-page.tsx'),
  reports: () => import('./pages/reports/reports-page.tsx'),
  rules: () => import('./pages/rules/rules-page.tsx'),
  maintenance: () => import('./pages/maintenance/maintenance-page.tsx'),
  software: () => import('./pages/software/software-page.tsx'),
  'software/rollouts/:rolloutId': () => import('./pages/software/rollout-page.tsx'),
  'pages/ui-features/buttons': () => import('./pages/ui-features/buttons-page.tsx'),
  'pages/ui-features/grid': () => import('./pages/ui-features/grid-page.tsx'),
  'pages/ui-features/icons': () => import('./pages/ui-features/icons-page.tsx'),
  'pages/ui-features/modals': () => import('./pages/ui-features/modals-page.tsx'),
  'pages/ui-features/typography': () => import('./pages/ui-features/typography-page.tsx'),
  'pages/ui-features/search-fields': () => import('./pages/ui-features/search-fields-page.tsx'),
  'pages/ui-features/tabs': () => import('./pages/ui-features/tabs-page.tsx'),
} satisfies Record<string, () => Promise<{ default: ComponentType }>>;

/** The Administration's pages, by file (`pages/admin/<page>-page.tsx`): a page of ADMIN_PAGES needs no line here. */
const ADMIN_PAGE_FILES = import.meta.glob<{ default: ComponentType }>('./pages/admin/*-page.tsx');

/** The code of an Administration page (config/paths.ts ADMIN_PAGES). */
export function loadAdminPage(page: AdminPage): Promise<{ default: ComponentType }> {
  const load = ADMIN_PAGE_FILES[`./pages/admin/${page}-page.tsx`];
  if (!load) return Promise.reject(new Error(`No page file for admin/${page}`));
  return load();
}
