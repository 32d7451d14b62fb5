import { Suspense } from 'react';
import { Navigate, useLocation } from 'react-router';
import { PageLoader } from '../../components/page-loader.tsx';
import { hasSession, useSession } from '../../lib/auth/session.ts';
import { lazyPreloaded } from '../../lib/preloadable.ts';
import { loadPagesFrame } from '../boot/dashboards.ts';

/**
 * The frame comes with the contract's schemas (zod, which the login route does without); the stored user is
 * checked with them before the frame renders, and a record they refuse sends the visitor to sign in
 * (app/boot/dashboards.ts). Loaded ahead with a stored session (app/boot/start.ts), it renders without a fallback.
 */
const PagesFrame = lazyPreloaded(loadPagesFrame);

/**
 * The route guard: the pages area needs an authenticated session and a non-empty stored user;
 * otherwise the visitor goes to auth/login. The frame (and each page) is fetched only once inside.
 */
export function RequireSession() {
  const session = useSession();
  const location = useLocation();
  if (!hasSession(session)) {
    return <Navigate to="/auth/login" replace state={{ from: location.pathname }} />;
  }
  return (
    <Suspense fallback={<PageLoader />}>
      <PagesFrame />
    </Suspense>
  );
}
