import { act, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { reloadSession, sessionStore, setToken, TOKEN_KEY, USER_KEY } from '../../lib/auth/session.ts';
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

  // Before any test loads the frame: the guard's lazy import brings the schema that checks the stored user.
  it('a stored user the contract schema refuses is no session once the frame loads', async () => {
    mockFetch({});
    const { location } = renderApp('/auth/login');
    expect(await screen.findByRole('heading', { name: 'Login' })).toBeInTheDocument();
    localStorage.setItem(TOKEN_KEY, fakeJwt());
    localStorage.setItem(USER_KEY, JSON.stringify({ ...makeUser(), agent: -1, name: undefined }));
    act(() => reloadSession());
    await waitFor(() => expect(location.current.pathname).toBe('/auth/login'));
    expect(sessionStore.get().user).toBeNull();
    expect(screen.queryByRole('button', { name: 'Toggle sidebar' })).not.toBeInTheDocument();
  });

  it('with a session, the guarded pages area loads lazily inside the frame', async () => {
    mockFetch({});
    renderApp('/pages/ui-features/buttons', { user: makeUser() });
    expect(await screen.findByRole('heading', { name: 'Buttons' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Toggle sidebar' })).toBeInTheDocument();
  });
});
