import { act, renderHook, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { sessionStore, setToken } from '../../lib/auth/session.ts';
import { makeUser } from '../../testing/factories.ts';
import { fakeJwt, json, mockFetch } from '../../testing/fetch-mock.ts';
import { renderApp } from '../../testing/render.tsx';
import { MIN_ROTATE_S, parseKiosk } from './kiosk.ts';
import { nextDashboard, useKioskSession, wallScreenDashboards } from './kiosk-mode.tsx';

afterEach(() => {
  vi.useRealTimers();
});

describe('parseKiosk', () => {
  it('turns the kiosk on for kiosk=1 on the dashboard routes only', () => {
    for (const path of [
      '/agent/dashboard',
      '/agent/7/dashboard',
      '/company/11/dashboard',
      '/company/11/site/101/dashboard',
    ]) {
      expect(parseKiosk(path, '?kiosk=1').on, path).toBe(true);
    }
    expect(parseKiosk('/agent/dashboard', '').on).toBe(false);
    expect(parseKiosk('/agent/dashboard', '?kiosk=0').on).toBe(false);
    expect(parseKiosk('/profile', '?kiosk=1').on).toBe(false);
    expect(parseKiosk('/agent/7/alert/log', '?kiosk=1&rotate=10')).toEqual({ on: false, rotateS: null });
  });

  it('rotates every whole number of seconds, raises 1–4 to the minimum and ignores 0, negatives and text', () => {
    expect(parseKiosk('/agent/dashboard', '?kiosk=1&rotate=30').rotateS).toBe(30);
    expect(parseKiosk('/agent/dashboard', '?kiosk=1&rotate=2').rotateS).toBe(MIN_ROTATE_S);
    for (const bad of ['0', '-5', 'abc', '1.5', '', '10s']) {
      expect(parseKiosk('/agent/dashboard', `?kiosk=1&rotate=${bad}`), bad).toEqual({
        on: true,
        rotateS: null,
      });
    }
    expect(parseKiosk('/agent/dashboard', '?rotate=10').rotateS).toBeNull();
  });
});

describe('wallScreenDashboards', () => {
  it('an agent: its dashboard, each company, then each site with its company', () => {
    const user = makeUser({
      agent: 7,
      companies: [
        { id: 11, name: 'A' },
        { id: 12, name: 'B' },
      ],
      sites: [],
    });
    const list = wallScreenDashboards(user, [
      {
        list: [
          { id: 101, company_id: 11 },
          { id: 201, company_id: 12 },
        ],
      },
    ]);
    expect(list).toEqual([
      '/agent/dashboard',
      '/company/11/dashboard',
      '/company/12/dashboard',
      '/company/11/site/101/dashboard',
      '/company/12/site/201/dashboard',
    ]);
  });

  it('a company user: its companies and their sites, no agent dashboard; a site user: its sites only', () => {
    const company = makeUser({ agent: null, companies: [{ id: 11, name: 'A' }], sites: [] });
    expect(wallScreenDashboards(company, [{ list: [{ id: 101 }], companyId: 11 }])).toEqual([
      '/company/11/dashboard',
      '/company/11/site/101/dashboard',
    ]);
    const site = makeUser({ agent: null, companies: [], sites: [{ id: 101, title: 'L', number: '1' }] });
    expect(wallScreenDashboards(site, [{ list: [{ id: 101, company_id: 11 }] }])).toEqual([
      '/company/11/site/101/dashboard',
    ]);
    expect(wallScreenDashboards(null, [])).toEqual([]);
  });

  it('nextDashboard wraps around, starts over from an unknown page and stays on a list of one', () => {
    const list = ['/agent/dashboard', '/company/11/dashboard'];
    expect(nextDashboard(list, '/agent/dashboard')).toBe('/company/11/dashboard');
    expect(nextDashboard(list, '/company/11/dashboard')).toBe('/agent/dashboard');
    expect(nextDashboard(list, '/agent/9/dashboard')).toBe('/agent/dashboard');
    expect(nextDashboard(['/agent/dashboard'], '/agent/dashboard')).toBeNull();
    expect(nextDashboard([], '/agent/dashboard')).toBeNull();
  });
});

const agent = makeUser({ agent: 7, companies: [{ id: 11, name: 'Northern Fuels' }] });
const freshToken = fakeJwt({ username: 'agent', jti: 'fresh' });
const agentSites = [{ id: 101, title: 'Leeds Road', number: '0101', status: 1, company_id: 11 }];

function kioskApi() {
  return mockFetch({
    'POST /api-token-verify/': (r) => json({ token: (r.body as { token: string }).token }),
    'POST /api-token-refresh/': json({ token: freshToken }),
    'GET /api/agent/7/sites/': json(agentSites),
  });
}

describe('the kiosk frame', () => {
  it('?kiosk=1 shows the dashboard without header, sidebar or footer, in larger type, and refreshes the token', async () => {
    const api = kioskApi();
    renderApp('/agent/dashboard?kiosk=1', { user: agent });
    expect(await screen.findByRole('heading', { name: 'Dashboard' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Toggle sidebar' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^User menu/ })).not.toBeInTheDocument();
    expect(screen.queryByText(/Created with ♥ by Forecourt/)).not.toBeInTheDocument();
    expect(screen.queryByRole('navigation')).not.toBeInTheDocument();
    expect(document.documentElement).toHaveAttribute('data-kiosk');
    await waitFor(() => expect(sessionStore.get().token).toBe(freshToken));
    expect(api.find('POST', '/api-token-refresh/')).toHaveLength(1);
  });

  it('the frame and normal type come back without kiosk=1', async () => {
    kioskApi();
    renderApp('/agent/dashboard', { user: agent });
    expect(await screen.findByRole('button', { name: 'Toggle sidebar' })).toBeInTheDocument();
    expect(document.documentElement).not.toHaveAttribute('data-kiosk');
  });

  it('a kiosk mounted again within a minute does not ask for another token', async () => {
    const api = kioskApi();
    setToken(fakeJwt({ username: 'remount' }));
    const first = renderHook(() => useKioskSession(true));
    await waitFor(() => expect(sessionStore.get().token).toBe(freshToken));
    first.unmount();
    renderHook(() => useKioskSession(true));
    await new Promise((r) => setTimeout(r, 50));
    expect(api.find('POST', '/api-token-refresh/')).toHaveLength(1);
  });

  it('keeps the session alive: a fresh token every 30 minutes while the kiosk shows, none after', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const api = kioskApi();
    // A token of its own: the kiosk skips a token it refreshed in the last minute, and fakeJwt's only varies by
    // the second (an earlier test's token could be this one: CI saw no refresh once).
    setToken(fakeJwt({ username: 'agent', jti: 'keep-alive' }));
    const hook = renderHook(({ on }) => useKioskSession(on), { initialProps: { on: true } });
    await waitFor(() => expect(api.find('POST', '/api-token-refresh/')).toHaveLength(1));
    await act(async () => {
      await vi.advanceTimersByTimeAsync(29 * 60_000);
    });
    expect(api.find('POST', '/api-token-refresh/')).toHaveLength(1);
    await act(async () => {
      await vi.advanceTimersByTimeAsync(2 * 60_000);
    });
    expect(api.find('POST', '/api-token-refresh/')).toHaveLength(2);
    hook.rerender({ on: false });
    expect(document.documentElement).not.toHaveAttribute('data-kiosk');
    await act(async () => {
      await vi.advanceTimersByTimeAsync(60 * 60_000);
    });
    expect(api.find('POST', '/api-token-refresh/')).toHaveLength(2);
  });

  it('&rotate=10 moves through the agent, company and site dashboards every 10 s, keeping the query', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    kioskApi();
    const { location } = renderApp('/agent/dashboard?kiosk=1&rotate=10', { user: agent });
    await screen.findByRole('heading', { name: 'Dashboard' });
    const step = async (ms: number) =>
      act(async () => {
        await vi.advanceTimersByTimeAsync(ms);
      });
    await step(9_000);
    expect(location.current.pathname).toBe('/agent/dashboard');
    await step(1_500);
    expect(location.current.pathname).toBe('/company/11/dashboard');
    expect(location.current.search).toBe('?kiosk=1&rotate=10');
    await step(10_000);
    expect(location.current.pathname).toBe('/company/11/site/101/dashboard');
    await step(10_000);
    expect(location.current.pathname).toBe('/agent/dashboard');
    expect(screen.queryByRole('button', { name: 'Toggle sidebar' })).not.toBeInTheDocument();
  });

  it('a company user opening the bare agent dashboard in kiosk mode lands on its company, still in kiosk', async () => {
    mockFetch({
      'POST /api-token-verify/': json({ token: 'x' }),
      'POST /api-token-refresh/': json({ token: freshToken }),
    });
    const companyUser = makeUser({ agent: null, companies: [{ id: 11, name: 'Northern Fuels' }], sites: [] });
    const { location } = renderApp('/agent/dashboard?kiosk=1', { user: companyUser });
    await waitFor(() => expect(location.current.pathname).toBe('/company/11/dashboard'));
    expect(location.current.search).toBe('?kiosk=1');
    await screen.findByRole('heading', { name: 'Dashboard' });
    expect(screen.queryByRole('button', { name: 'Toggle sidebar' })).not.toBeInTheDocument();
  });

  it('a bad rotate value keeps the kiosk on one dashboard', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    kioskApi();
    const { location } = renderApp('/agent/dashboard?kiosk=1&rotate=0', { user: agent });
    await screen.findByRole('heading', { name: 'Dashboard' });
    await act(async () => {
      await vi.advanceTimersByTimeAsync(120_000);
    });
    expect(location.current.pathname).toBe('/agent/dashboard');
    expect(screen.queryByRole('button', { name: 'Toggle sidebar' })).not.toBeInTheDocument();
  });
});

describe('the Wall screen entry of the user menu', () => {
  it('opens the current dashboard in kiosk mode', async () => {
    kioskApi();
    const { user, location } = renderApp('/agent/dashboard', { user: agent });
    await user.click(await screen.findByRole('button', { name: /^User menu/ }));
    const item = await screen.findByRole('menuitem', { name: 'Wall screen' });
    expect(item).toHaveAttribute('href', '/agent/dashboard?kiosk=1');
    await user.click(item);
    await waitFor(() => expect(location.current.search).toBe('?kiosk=1'));
    expect(screen.queryByRole('button', { name: 'Toggle sidebar' })).not.toBeInTheDocument();
  });

  it("from another page leads to the user's own dashboard", async () => {
    mockFetch({ 'POST /api-token-verify/': json({ token: 'x' }) });
    const companyUser = makeUser({ agent: null, companies: [{ id: 11, name: 'Northern Fuels' }], sites: [] });
    const { user } = renderApp('/profile', { user: companyUser });
    await user.click(await screen.findByRole('button', { name: /^User menu/ }));
    expect(await screen.findByRole('menuitem', { name: 'Wall screen' })).toHaveAttribute(
      'href',
      '/company/11/dashboard?kiosk=1',
    );
  });
});
