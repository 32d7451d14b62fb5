import { logRoutePatterns } from '@forecourt/contract/log-paths';
import type { ComponentType } from 'react';
import type { RouteObject } from 'react-router';
import { ADMIN_PAGES } from '../../config/paths.ts';
import { DASHBOARD_ROUTES } from '../boot/dashboards.ts';
import { lazyPage } from './lazy-page.tsx';
import type { PAGE_LOADERS } from './page-loaders.ts';

/** A page of page-loaders.ts, at its path: that module first, then the page's own code. */
const page = (path: keyof typeof PAGE_LOADERS) =>
  lazyPage(path, () =>
    import('./page-loaders.ts').then((m) => {
      const load: () => Promise<{ default: ComponentType }> = m.PAGE_LOADERS[path];
      return load();
    }),
  );

/**
 * The guarded pages area: every screen behind the sign-in. Paths have no leading slash and live at the root of
 * the hash (`#/agent/dashboard`). Add a page with one line in page-loaders.ts and one `page(...)` here; an
 * Administration page comes from ADMIN_PAGES (config/paths.ts) and its file alone.
 */
export const pagesRoutes: RouteObject[] = [
  // Dashboards (their table is the boot's: app/boot/dashboards.ts)
  ...DASHBOARD_ROUTES.map((route) => lazyPage(route.path, route.load)),

  // Log screens and profile
  ...logRoutePatterns().map(([path, kind]) =>
    lazyPage(path, () => import('./pages/logs/log-pages.tsx').then((m) => ({ default: m.LOG_PAGES[kind] }))),
  ),
  page('profile'),

  // Notifications: contact points, policies, the delivery log (agents and company users)
  page('notifications'),

  // One terminal: details, charts of its readings, recent alerts and commands
  page('site/:siteId/terminal/:terminalId'),

  // Availability and alert reports, their files and schedules (every role)
  page('reports'),
  // Alert rules and maintenance windows
  page('rules'),
  page('maintenance'),

  // Administration (agents only)
  ...ADMIN_PAGES.map((name) =>
    lazyPage(`admin/${name}`, () => import('./page-loaders.ts').then((m) => m.loadAdminPage(name))),
  ),

  // Software packages and rollouts (agents only)
  page('software'),
  page('software/rollouts/:rolloutId'),

  // UI features: a living catalogue of Forecourt's own components
  page('pages/ui-features/buttons'),
  page('pages/ui-features/grid'),
  page('pages/ui-features/icons'),
  page('pages/ui-features/modals'),
  page('pages/ui-features/typography'),
  page('pages/ui-features/search-fields'),
  page('pages/ui-features/tabs'),
];
