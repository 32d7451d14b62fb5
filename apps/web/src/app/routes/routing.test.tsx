import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { setToken } from '../../lib/auth/session.ts';
import { makeUser } from '../../testing/factories.ts';
import { fakeJwt, mockFetch } from '../../testing/fetch-mock.ts';
import { renderApp } from '../../testing/render.tsx';

describe('routing', () => {
  it.each(['/', '/no/such/page', '/auth/nowhere'])('%s goes to auth/login', async (path) => {
    const { location } = renderApp(path);
    expect(await screen.findByRole('heading', { name: 'Login' })).toBeInTheDocument();
    expect(location.current.pathname).toBe('/auth/login');
  });

  it('a guarded page without a session goes to auth/login', async () => {
    const { location } = renderApp('/agent/dashboard');
    await waitFor(() => expect(location.current.pathname).toBe('/auth/login'));
  });

  it('a token without a stored user is not enough', async () => {
    mockFetch({});
    const view = renderApp('/pages/ui-features/buttons');
    setToken(fakeJwt());
    await waitFor(() => expect(view.location.current.pathname).toBe('/auth/login'));
  });

  it('an expired token is not a session', async () => {
    const { location } = renderApp('/agent/dashboard', { user: makeUser() });
    setToken(fakeJwt({ exp: Math.floor(Date.now() / 1000) - 10 }));
    await waitFor(() => expect(location.current.pathname).toBe('/auth/login'));
  });

  it('with a session, the guarded pages area loads lazily inside the frame', async () => {
    mockFetch({});
    renderApp('/pages/ui-features/buttons', { user: makeUser() });
    expect(await screen.findByRole('heading', { name: 'Buttons' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Toggle sidebar' })).toBeInTheDocument();
  });
});
