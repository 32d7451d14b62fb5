import { type ComponentType, lazy, Suspense, useEffect } from 'react';
import { Navigate, type RouteObject, useNavigate, useRoutes } from 'react-router';
import { setUnauthorizedHandler } from '../lib/unauthorized.ts';
import { AuthLayout } from './routes/auth/auth-layout.tsx';
import { LoginPage } from './routes/auth/login-page.tsx';
import { RequireSession } from './routes/require-session.tsx';

const toLogin = <Navigate to="/auth/login" replace />;

/** The auth screens other than login are fetched on first visit, which keeps the login route light. */
function lazyAuthPage(load: () => Promise<{ default: ComponentType }>) {
  const Page = lazy(load);
  return (
    <Suspense fallback={null}>
      <Page />
    </Suspense>
  );
}

const register = lazyAuthPage(() =>
  import('./routes/auth/register-page.tsx').then((m) => ({ default: m.RegisterPage })),
);
const logout = lazyAuthPage(() =>
  import('./routes/auth/logout-page.tsx').then((m) => ({ default: m.LogoutPage })),
);
const requestPassword = lazyAuthPage(() =>
  import('./routes/auth/request-password-page.tsx').then((m) => ({ default: m.RequestPasswordPage })),
);
const resetPassword = lazyAuthPage(() =>
  import('./routes/auth/reset-password-page.tsx').then((m) => ({ default: m.ResetPasswordPage })),
);

/** Every route of the app. An empty or unknown path goes to auth/login. */
export const appRoutes: RouteObject[] = [
  {
    path: '/auth',
    element: <AuthLayout />,
    children: [
      { index: true, element: <LoginPage /> },
      { path: 'login', element: <LoginPage /> },
      { path: 'register', element: register },
      { path: 'logout', element: logout },
      { path: 'request-password', element: requestPassword },
      { path: 'reset-password', element: resetPassword },
      { path: '*', element: toLogin },
    ],
  },
  // Every other path is guarded; the frame (lazy) holds the pages' own route table.
  { path: '/', element: toLogin },
  { path: '*', element: <RequireSession /> },
];

/**
 * The route table rendered inside a router (HashRouter in the app, MemoryRouter in tests). The
 * declarative router is half the weight of the data router, which keeps the login route in budget.
 */
export function AppRoutes({ routes = appRoutes }: { routes?: RouteObject[] }) {
  const navigate = useNavigate();
  useEffect(() => {
    setUnauthorizedHandler(() => navigate('/auth/login', { replace: true }));
  }, [navigate]);
  return useRoutes(routes);
}
