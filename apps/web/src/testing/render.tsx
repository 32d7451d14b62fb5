import type { CurrentUser } from '@forecourt/contract/users';
import { QueryClient } from '@tanstack/react-query';
import { type RenderOptions, render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactElement, ReactNode } from 'react';
import { MemoryRouter, type RouteObject, useLocation } from 'react-router';
import { DataProviders } from '../app/data-providers.tsx';
import { AppProviders } from '../app/providers.tsx';
import { AppRoutes, appRoutes } from '../app/router.tsx';
import { authFlashStore } from '../lib/auth/auth-service.ts';
import { clearSession, setToken, setUser } from '../lib/auth/session.ts';
import { fakeJwt } from './fetch-mock.ts';
import { createTestI18n } from './test-i18n.ts';

export interface RenderWithProvidersOptions extends Omit<RenderOptions, 'wrapper'> {
  /** Initial location (path after '#'). @default '/' */
  route?: string;
  /** Route table; defaults to one route rendering `ui` at `path`. */
  routes?: RouteObject[];
  /** Route pattern `ui` is mounted at when `routes` is not given. @default '*' */
  path?: string;
  /** Start signed in as this user (a valid token is stored too); `null` starts signed out. */
  user?: CurrentUser | null;
  /** Language. @default 'en' */
  lang?: string;
}

/** Keeps the router's current location where a test can read it (`result.location.current.pathname`). */
export interface LocationRef {
  current: { pathname: string; search: string; hash: string; state: unknown };
}

function LocationProbe({ target }: { target: LocationRef }) {
  target.current = useLocation();
  return null;
}

export function createTestQueryClient() {
  return new QueryClient({
    defaultOptions: {
      queries: { retry: false, gcTime: Number.POSITIVE_INFINITY },
      mutations: { retry: false },
    },
  });
}

/**
 * Render with everything the app has around it — Mantine (test env: no transitions or portals),
 * real translations, a fresh QueryClient (retry off) and a memory router — and a userEvent instance.
 */
export function renderWithProviders(ui: ReactElement | null, options: RenderWithProvidersOptions = {}) {
  const { route = '/', routes, path = '*', user, lang = 'en', ...rest } = options;
  clearSession();
  authFlashStore.set(null);
  if (user) {
    setToken(fakeJwt({ username: user.username }));
    setUser(user);
  }
  const queryClient = createTestQueryClient();
  const i18n = createTestI18n(lang);
  const location: LocationRef = { current: { pathname: '', search: '', hash: '', state: null } };
  const user$ = userEvent.setup();
  function Wrapper({ children }: { children: ReactNode }) {
    return (
      <AppProviders i18n={i18n} env="test">
        <DataProviders queryClient={queryClient}>
          <MemoryRouter initialEntries={[route]}>
            <LocationProbe target={location} />
            {children}
          </MemoryRouter>
        </DataProviders>
      </AppProviders>
    );
  }
  // Without a route table the element renders directly, so `rerender(<X />)` keeps every provider.
  const content = routes ? (
    <AppRoutes routes={routes} />
  ) : path === '*' ? (
    ui
  ) : (
    <AppRoutes routes={[{ path, element: ui }]} />
  );
  const view = render(content, { ...rest, wrapper: Wrapper });
  return { ...view, user: user$, location, queryClient, i18n };
}

/** The whole app's route table at `route`. */
export function renderApp(route: string, options: Omit<RenderWithProvidersOptions, 'routes' | 'route'> = {}) {
  return renderWithProviders(null, { ...options, routes: appRoutes, route });
}
