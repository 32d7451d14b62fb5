import type { ComponentType } from 'react';

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
  'admin/companies': () => import('./pages/admin/companies-page.tsx'),
  'admin/sites': () => import('./pages/admin/sites-page.tsx'),
  'admin/terminals': () => import('./pages/admin/terminals-page.tsx'),
  'admin/pumps': () => import('./pages/admin/pumps-page.tsx'),
  'admin/users': () => import('./pages/admin/users-page.tsx'),
  'admin/import': () => import('./pages/admin/import-page.tsx'),
  'admin/audit': () => import('./pages/admin/audit-page.tsx'),
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
