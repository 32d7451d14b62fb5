import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { makeUser } from '../../../testing/factories.ts';
import { json, mockFetch } from '../../../testing/fetch-mock.ts';
import { renderApp } from '../../../testing/render.tsx';

describe('logout page', () => {
  it('shows the waiting text, calls logout, clears the session and lands on login', async () => {
    let release: () => void = () => {};
    const api = mockFetch({
      'DELETE /api/auth/logout': () =>
        new Promise((resolve) => {
          release = () => resolve(json({ data: { messages: ['You have been successfully logged out.'] } }));
        }),
    });
    const { location } = renderApp('/auth/logout', { user: makeUser() });
    expect(await screen.findByText('Logging out, please wait...')).toBeInTheDocument();
    await waitFor(() => expect(api.find('DELETE', '/api/auth/logout')).toHaveLength(1));
    release();
    await waitFor(() => expect(location.current.pathname).toBe('/auth/login'));
    expect(await screen.findByText('You have been successfully logged out.')).toBeInTheDocument();
    expect(localStorage.getItem('auth_app_token')).toBeNull();
    expect(localStorage.getItem('user')).toBeNull();
  });

  it('goes to login even when the server fails', async () => {
    mockFetch({ 'DELETE /api/auth/logout': json({}, 500) });
    const { location } = renderApp('/auth/logout', { user: makeUser() });
    await waitFor(() => expect(location.current.pathname).toBe('/auth/login'));
    expect(localStorage.getItem('auth_app_token')).toBeNull();
  });
});
