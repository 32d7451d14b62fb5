import { logRoutePatterns } from '@forecourt/contract/log-paths';
import type { RouteObject } from 'react-router';
import { DASHBOARD_ROUTES } from '../boot/dashboards.ts';
import { lazyPage } from './lazy-page.tsx';

/**
 * The guarded pages area: every screen behind the sign-in, one line each. Paths have no leading
 * slash and live at the root of the hash (`#/agent/dashboard`). Add a page with one `lazyPage` line.
 */
export const pagesRoutes: RouteObject[] = [
  // Dashboards (their table is the boot's: app/boot/dashboards.ts)
  ...DASHBOARD_ROUTES.map((route) => lazyPage(route.path, route.load)),

  // Log screens and profile
  ...logRoutePatterns().map(([path, kind]) =>
    lazyPage(path, () => import('./pages/logs/log-pages.tsx').then((m) => ({ default: m.LOG_PAGES[kind] }))),
  ),
  lazyPage('profile', () => import('./pages/profile/profile-page.tsx')),

  // One terminal: details, charts of its readings, recent alerts and commands
  lazyPage('site/:siteId/terminal/:terminalId', () => import('./pages/terminal/terminal-page.tsx')),

  // Administration (agents only)
  lazyPage('admin/companies', () => import('./pages/admin/companies-page.tsx')),
  lazyPage('admin/sites', () => import('./pages/admin/sites-page.tsx')),
  lazyPage('admin/terminals', () => import('./pages/admin/terminals-page.tsx')),
  lazyPage('admin/pumps', () => import('./pages/admin/pumps-page.tsx')),
  lazyPage('admin/users', () => import('./pages/admin/users-page.tsx')),
  lazyPage('admin/import', () => import('./pages/admin/import-page.tsx')),
  lazyPage('admin/audit', () => import('./pages/admin/audit-page.tsx')),

  // UI features: a living catalogue of Forecourt's own components
  lazyPage('pages/ui-features/buttons', () => import('./pages/ui-features/buttons-page.tsx')),
  lazyPage('pages/ui-features/grid', () => import('./pages/ui-features/grid-page.tsx')),
  lazyPage('pages/ui-features/icons', () => import('./pages/ui-features/icons-page.tsx')),
  lazyPage('pages/ui-features/modals', () => import('./pages/ui-features/modals-page.tsx')),
  lazyPage('pages/ui-features/typography', () => import('./pages/ui-features/typography-page.tsx')),
  lazyPage('pages/ui-features/search-fields', () => import('./pages/ui-features/search-fields-page.tsx')),
  lazyPage('pages/ui-features/tabs', () => import('./pages/ui-features/tabs-page.tsx')),
];
