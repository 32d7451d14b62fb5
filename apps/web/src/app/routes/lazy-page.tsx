import { type ComponentType, lazy, Suspense } from 'react';
import type { RouteObject } from 'react-router';
import { PageLoader } from '../../components/page-loader.tsx';
import { PageErrorBoundary } from './page-error-boundary.tsx';

/**
 * One line per page: `lazyPage('agent/dashboard', () => import('./agent/agent-dashboard-page.tsx'))`.
 * The module's default export is the page; it is fetched only when the page is first shown
 * (after the route guard let the visitor in).
 */
export function lazyPage(path: string, load: () => Promise<{ default: ComponentType }>): RouteObject {
  const Page = lazy(load);
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
