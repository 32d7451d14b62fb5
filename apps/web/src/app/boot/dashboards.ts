import type { CurrentUser } from '@forecourt/contract/users';
import type { ComponentType } from 'react';
import { type Preloadable, preloadable } from '../../lib/preloadable.ts';
import type { Scope } from '../../lib/scope.ts';
import type { Board, FirstRead } from '../../lib/widget-descriptor.ts';
import { parseId } from '../routes/pages/dashboards/dashboard-ids.ts';

/**
 * The dashboards' routes, once: the route table renders them from here (routes/pages-routes.tsx), the boot
 * (start.ts) finds the one the address names among them, and the build (plan.ts) tells theme-init.js which files
 * each one's first view needs. Every module loads once (lib/preloadable.ts): loaded ahead by the boot, the first
 * render finds it and shows it without a Suspense fallback.
 */

/** The page frame, once the stored user has been checked with the contract's schemas (a refused one signs out). */
export const loadPagesFrame = preloadable(async () => {
  const [frame, schemas] = await Promise.all([
    import('../frame/pages-frame.tsx'),
    import('../../lib/auth/schemas.ts'),
  ]);
  schemas.checkStoredUser();
  return frame;
});

/**
 * A dashboard page's module: its component and, where its heading reads something of its own (a company's name, a
 * site's title), those reads, asked for by the boot with the widgets' first reads (start.ts) instead of once the
 * page has rendered: a round trip less inside the largest paint on a phone.
 */
export interface PageModule {
  default: ComponentType;
  firstReads?: (scope: Scope) => readonly FirstRead[];
}
type Page = Preloadable<PageModule>;
const agentPage: Page = preloadable(() => import('../routes/pages/dashboards/agent-dashboard-page.tsx'));
const companyPage: Page = preloadable(() => import('../routes/pages/dashboards/company-dashboard-page.tsx'));
const sitePage: Page = preloadable(() => import('../routes/pages/dashboards/site-dashboard-page.tsx'));

export interface DashboardRoute {
  /** The route's path, as the route table has it (no leading slash). */
  path: string;
  /** The board it shows (its widgets: widgets/registry.ts). */
  board: Board;
  load: Page;
  /** The scope it shows, from the path's parameters and the stored user; null when it shows none. */
  scope(params: Record<string, string | undefined>, user: CurrentUser | null): Scope | null;
}

const idScope = (kind: Scope['kind'], value: string | undefined): Scope | null => {
  const id = parseId(value);
  return id ? { kind, id } : null;
};

export const DASHBOARD_ROUTES: readonly DashboardRoute[] = [
  // The bare path shows an agent's own dashboard; other users are sent on to theirs.
  {
    path: 'agent/dashboard',
    board: 'agent',
    load: agentPage,
    scope: (_, user) => (user?.agent ? { kind: 'agent', id: user.agent } : null),
  },
  {
    path: 'agent/:agentId/dashboard',
    board: 'agent',
    load: agentPage,
    scope: (p) => idScope('agent', p.agentId),
  },
  {
    path: 'company/:companyId/dashboard',
    board: 'company',
    load: companyPage,
    scope: (p) => idScope('company', p.companyId),
  },
  {
    path: 'company/:companyId/site/:siteId/dashboard',
    board: 'site',
    load: sitePage,
    scope: (p) => idScope('site', p.siteId),
  },
];
