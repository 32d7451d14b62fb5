import { preloadable } from '../../lib/preloadable.ts';

/**
 * The modules of a signed-in first view, loaded once: the route table renders them from here (lib/preloadable.ts)
 * and app/preload.ts loads them ahead, in parallel with the translations, so that the first render finds them.
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

export const loadAgentDashboard = preloadable(() => import('./pages/dashboards/agent-dashboard-page.tsx'));
export const loadCompanyDashboard = preloadable(
  () => import('./pages/dashboards/company-dashboard-page.tsx'),
);
export const loadSiteDashboard = preloadable(() => import('./pages/dashboards/site-dashboard-page.tsx'));
