import { type ComponentType, Suspense } from 'react';
import type { RouteObject } from 'react-router';
import { PageLoader } from '../../components/page-loader.tsx';
import { lazyPreloaded, type Preloadable, preloadable } from '../../lib/preloadable.ts';
import { PageErrorBoundary } from './page-error-boundary.tsx';

/**
 * One line per page: `lazyPage('agent/dashboard', () => import('./agent/agent-dashboard-page.tsx'))`.
 * The module's default export is the page; it is fetched only when the page is first shown
 * (after the route guard let the visitor in), or ahead by a preloadable loader (app/boot/dashboards.ts): then the
 * page renders at once, without its fallback.
 */
export function lazyPage(
  path: string,
  load: Preloadable<{ default: ComponentType }> | (() => Promise<{ default: ComponentType }>),
): RouteObject {
  const Page = lazyPreloaded('loaded' in load ? load : preloadable(load));
  return {
    path,
    element: (
      <PageErrorBoundary>
        <Suspense fallback={<PageLoader />}>
          <Page />
        </Suspense>
      </PageErrorBoundary>
    ),
  };
}
