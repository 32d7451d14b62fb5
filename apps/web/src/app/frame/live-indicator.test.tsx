import { act, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { liveStateStore } from '../../lib/live-stream-state.ts';
import { makeUser } from '../../testing/factories.ts';
import { json, mockFetch } from '../../testing/fetch-mock.ts';
import { renderApp, renderWithProviders } from '../../testing/render.tsx';
import { type SseServer, startSseServer } from '../../testing/sse-server.ts';
import { LiveIndicator } from './live-indicator.tsx';

const realFetch = globalThis.fetch;
let server: SseServer | null = null;

afterEach(async () => {
  await server?.close();
  server = null;
  liveStateStore.set('off');
});

describe('the header indicator', () => {
  it.each([
    ['en', 'live', 'Live'],
    ['en', 'connecting', 'Connecting…'],
    ['en', 'reconnecting', 'Reconnecting…'],
    ['fr', 'live', 'En direct'],
    ['fr', 'reconnecting', 'Reconnexion…'],
    ['ar', 'live', 'مباشر'],
    ['ar', 'reconnecting', 'جارٍ إعادة الاتصال…'],
  ] as const)('%s, %s: a status named %s', (lang, state, name) => {
    liveStateStore.set(state);
    renderWithProviders(<LiveIndicator />, { lang });
    const status = screen.getByRole('status', { name });
    expect(status).toHaveAttribute('data-state', state);
    expect(status).toHaveTextContent(name);
  });

  it('shows nothing while signed out (no stream)', () => {
    liveStateStore.set('off');
    renderWithProviders(<LiveIndicator />);
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
  });

  it('follows the state as it changes', async () => {
    liveStateStore.set('connecting');
    renderWithProviders(<LiveIndicator />);
    expect(screen.getByRole('status', { name: 'Connecting…' })).toBeInTheDocument();
    act(() => liveStateStore.set('live'));
    expect(screen.getByRole('status', { name: 'Live' })).toBeInTheDocument();
    act(() => liveStateStore.set('reconnecting'));
    expect(screen.getByRole('status', { name: 'Reconnecting…' })).toBeInTheDocument();
  });
});

describe('the signed-in console on its stream (a real SSE server)', () => {
  it('opens the stream with the token when signed in: Live; a drop shows Reconnecting… until it is back; sign-out ends it', async () => {
    const sse = await startSseServer();
    server = sse;
    const api = mockFetch({
      'POST /api-token-verify/': json({ token: 'x' }),
      'DELETE /api/auth/logout': json({}),
    });
    const mocked = globalThis.fetch;
    // GET /api/live goes to the real stream server, every other call to the mock.
    vi.stubGlobal('fetch', (input: RequestInfo | URL, init?: RequestInit) =>
      new URL(String(input), 'http://localhost').pathname === '/api/live'
        ? realFetch(sse.url, init)
        : mocked(input, init),
    );
    const { user, location } = renderApp('/agent/dashboard', { user: makeUser() });
    await screen.findByRole('heading', { name: 'Dashboard' });
    expect(await screen.findByRole('status', { name: 'Live' })).toBeInTheDocument();
    expect(sse.requests).toHaveLength(1);
    expect(sse.requests[0].headers.authorization).toMatch(/^JWT \S+\.\S+\.\S+$/);

    // The server refuses for a while: Reconnecting…, then Live again by itself.
    sse.refuseNext(503);
    sse.drop();
    expect(await screen.findByRole('status', { name: 'Reconnecting…' })).toBeInTheDocument();
    expect(await screen.findByRole('status', { name: 'Live' }, { timeout: 15_000 })).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: /^User menu/ }));
    await user.click(await screen.findByRole('menuitem', { name: 'Log out' }));
    await waitFor(() => expect(location.current.pathname).toBe('/auth/login'));
    expect(api.find('DELETE', '/api/auth/logout')).toHaveLength(1);
    await waitFor(() => expect(sse.openCount()).toBe(0));
    expect(liveStateStore.get()).toBe('off');
  }, 30_000);
});
