import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { analytics } from '../../lib/analytics.ts';
import { layoutStore } from '../../lib/layout-store.ts';
import { headerSearchStore } from '../../lib/search-store.ts';
import { makeAlert, makeUser } from '../../testing/factories.ts';
import { json, mockFetch } from '../../testing/fetch-mock.ts';
import { renderApp } from '../../testing/render.tsx';

afterEach(() => {
  analytics.setEnabled(false);
  analytics.clear();
  layoutStore.set({ layout: 'one-column', sidebar: 'left' });
  headerSearchStore.set('');
});

/** The notification polls (limit_to=20), not the dashboard widgets reading the same alerts. */
function notificationCalls(api: ReturnType<typeof mockFetch>, path: string) {
  return api.find('GET', path).filter((c) => c.url.searchParams.get('limit_to') === '20');
}

async function openFrame(user = makeUser(), routes: Parameters<typeof mockFetch>[0] = {}) {
  const api = mockFetch({ 'POST /api-token-verify/': json({ token: 'x' }), ...routes });
  const view = renderApp('/agent/dashboard', { user });
  await screen.findByRole('heading', { name: 'Dashboard' });
  return { ...view, api };
}

describe('page frame header', () => {
  it('has the sidebar toggle, settings toggle, logo link home, bell, email, avatar menu and search', async () => {
    const { user } = await openFrame();
    expect(screen.getByRole('button', { name: 'Toggle sidebar' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Settings' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Forecourt home' })).toHaveAttribute('href', '/agent/dashboard');
    expect(screen.getByRole('button', { name: 'Notifications' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Messages' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: /^User menu/ }));
    expect(await screen.findByRole('menuitem', { name: 'Profile' })).toHaveAttribute('href', '/profile');
    expect(screen.getByRole('menuitem', { name: 'Log out' })).toHaveAttribute('href', '/auth/logout');
  });

  it('the search expands on icon click, emits its text as the user types and collapses on blur', async () => {
    const { user } = await openFrame();
    expect(screen.queryByPlaceholderText('Type your search request here...')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Search' }));
    const input = screen.getByPlaceholderText('Type your search request here...');
    expect(input).toHaveFocus();
    await user.type(input, 'pum');
    expect(headerSearchStore.get()).toBe('pum');
    await user.type(input, 'p');
    expect(headerSearchStore.get()).toBe('pump');
    await user.tab();
    expect(screen.queryByPlaceholderText('Type your search request here...')).not.toBeInTheDocument();
  });

  it('Log out from the avatar menu signs out', async () => {
    const { user, location, api } = await openFrame(makeUser(), { 'DELETE /api/auth/logout': json({}) });
    await user.click(screen.getByRole('button', { name: /^User menu/ }));
    await user.click(await screen.findByRole('menuitem', { name: 'Log out' }));
    await waitFor(() => expect(location.current.pathname).toBe('/auth/login'));
    expect(api.find('DELETE', '/api/auth/logout')).toHaveLength(1);
  });

  it('footer has the credit with 2018 and social links', async () => {
    await openFrame();
    expect(screen.getByText(/Created with ♥ by Forecourt 2018/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'GitHub' })).toBeInTheDocument();
  });
});

describe('notifications', () => {
  it('agent: polls the agent alerts, lists them linking to #/agent/{id}/alert/log, closes with X', async () => {
    const alerts = [
      makeAlert({ id: 1, text: 'Terminal offline: 0101-2' }),
      makeAlert({ id: 2, text: 'Shock: 0207-1' }),
    ];
    const { user, api } = await openFrame(makeUser({ agent: 7 }), {
      'GET /api/alerts/agent/7/': json(alerts),
    });
    await waitFor(() => expect(notificationCalls(api, '/api/alerts/agent/7/')).toHaveLength(1));
    await user.click(screen.getByRole('button', { name: 'Notifications' }));
    const dialog = await screen.findByRole('dialog', { name: 'Notifications' });
    const links = within(dialog).getAllByRole('link');
    expect(links).toHaveLength(2);
    expect(links[0]).toHaveAttribute('href', '#/agent/7/alert/log?state=active&acknowledged=false');
    expect(links[0]).toHaveTextContent('Terminal offline: 0101-2');
    await user.click(within(dialog).getByRole('button', { name: 'Close notifications' }));
    await waitFor(() =>
      expect(screen.queryByRole('dialog', { name: 'Notifications' })).not.toBeInTheDocument(),
    );
  });

  it('the email icon opens the same dropdown and wears a hard-coded 2', async () => {
    const { user } = await openFrame(makeUser({ agent: 7 }), { 'GET /api/alerts/agent/7/': json([]) });
    const mail = screen.getByRole('button', { name: 'Messages' });
    expect(mail.parentElement).toHaveTextContent('2');
    await user.click(mail);
    const dialog = await screen.findByRole('dialog', { name: 'Notifications' });
    expect(within(dialog).getByText('No Notifications')).toBeInTheDocument();
  });

  it('an empty list shows No Notifications and the bell count 0, greyed', async () => {
    const { user } = await openFrame(makeUser({ agent: 7 }), { 'GET /api/alerts/agent/7/': json([]) });
    const bell = screen.getByRole('button', { name: 'Notifications' });
    const indicator = bell.closest('.fc-bell-count');
    expect(indicator).toHaveAttribute('data-empty');
    expect(indicator).toHaveTextContent('0');
    await user.click(bell);
    expect(await screen.findByText('No Notifications')).toBeInTheDocument();
  });

  it.each([
    [
      'company user: the first company',
      makeUser({ agent: null }),
      '/api/alerts/company/11/',
      '#/company/11/alert/log?state=active&acknowledged=false',
    ],
    [
      'site user: the first site',
      makeUser({ agent: null, companies: [] }),
      '/api/alerts/site/101/',
      '#/site/101/alert/log?state=active&acknowledged=false',
    ],
  ])('%s', async (_name, user, path, href) => {
    const view = await openFrame(user, { [`GET ${path}`]: json([makeAlert()]) });
    await waitFor(() => expect(notificationCalls(view.api, path)).toHaveLength(1));
    await view.user.click(screen.getByRole('button', { name: 'Notifications' }));
    expect(await screen.findByRole('link', { name: /Terminal offline/ })).toHaveAttribute('href', href);
  });

  it('the bell counts the unacknowledged active alerts of the scope and lists the latest of them', async () => {
    const { user, api } = await openFrame(makeUser({ agent: 7 }), {
      'GET /api/alerts/agent/7/': json([makeAlert({ id: 1, text: 'Modem failure: no carrier' })]),
      'GET /api/alerts/agent/7/count/': json({ count: 37 }),
    });
    const bell = screen.getByRole('button', { name: 'Notifications' });
    await waitFor(() => expect(bell.closest('.fc-bell-count')).toHaveTextContent('37'));
    const [list] = notificationCalls(api, '/api/alerts/agent/7/');
    expect(list!.url.searchParams.get('state')).toBe('active');
    expect(list!.url.searchParams.get('acknowledged')).toBe('false');
    const [count] = api.find('GET', '/api/alerts/agent/7/count/');
    expect(count!.url.searchParams.get('state')).toBe('active');
    expect(count!.url.searchParams.get('acknowledged')).toBe('false');
    await user.click(bell);
    const dialog = await screen.findByRole('dialog', { name: 'Notifications' });
    expect(within(dialog).getByText('37')).toBeInTheDocument();
    expect(within(dialog).getByRole('link', { name: /Modem failure/ })).toHaveAttribute(
      'href',
      '#/agent/7/alert/log?state=active&acknowledged=false',
    );
  });

  it('no agent, company or site: no notifications and no call', async () => {
    const { api, user } = await openFrame(makeUser({ agent: null, companies: [], sites: [] }));
    await user.click(screen.getByRole('button', { name: 'Notifications' }));
    expect(await screen.findByText('No Notifications')).toBeInTheDocument();
    expect(api.calls.filter((c) => c.url.pathname.startsWith('/api/alerts'))).toHaveLength(0);
  });

  it('polls again every 15000 ms', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const { api } = await openFrame(makeUser({ agent: 7 }), { 'GET /api/alerts/agent/7/': json([]) });
    await waitFor(() => expect(notificationCalls(api, '/api/alerts/agent/7/')).toHaveLength(1));
    await act(async () => {
      await vi.advanceTimersByTimeAsync(14_000);
    });
    expect(notificationCalls(api, '/api/alerts/agent/7/')).toHaveLength(1);
    await act(async () => {
      await vi.advanceTimersByTimeAsync(1_500);
    });
    await waitFor(() => expect(notificationCalls(api, '/api/alerts/agent/7/')).toHaveLength(2));
  });
});

describe('settings sidebar', () => {
  it('starts collapsed and opens from the settings toggle', async () => {
    const { user } = await openFrame();
    expect(screen.queryByRole('dialog', { name: 'Settings' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Settings' }));
    const panel = await screen.findByRole('dialog', { name: 'Settings' });
    expect(within(panel).getByRole('radio', { name: 'One Column' })).toBeChecked();
    expect(within(panel).getByRole('radio', { name: 'Two Column' })).not.toBeChecked();
    expect(within(panel).getByRole('radio', { name: 'Center Column' })).not.toBeChecked();
    expect(within(panel).getByRole('radio', { name: 'Left' })).toBeChecked();
    expect(within(panel).getAllByText('No errors')).toHaveLength(4);
    for (const name of ['Companies', 'Sites', 'Terminals', 'Other'])
      expect(within(panel).getByText(name)).toBeInTheDocument();
  });

  it('picking a layout selects only it and publishes it; two columns bring Support Us', async () => {
    const { user } = await openFrame();
    await user.click(screen.getByRole('button', { name: 'Settings' }));
    const panel = await screen.findByRole('dialog', { name: 'Settings' });
    await user.click(within(panel).getByRole('radio', { name: 'Two Column' }));
    expect(within(panel).getByRole('radio', { name: 'Two Column' })).toBeChecked();
    expect(within(panel).getByRole('radio', { name: 'One Column' })).not.toBeChecked();
    expect(layoutStore.get().layout).toBe('two-column');
    expect(screen.getByRole('link', { name: 'Support Us' })).toBeInTheDocument();
    await user.click(within(panel).getByRole('radio', { name: 'Center Column' }));
    expect(layoutStore.get().layout).toBe('center-column');
    expect(screen.queryByRole('link', { name: 'Support Us' })).not.toBeInTheDocument();
    await user.click(within(panel).getByRole('radio', { name: 'Right' }));
    expect(layoutStore.get().sidebar).toBe('right');
  });

  it('the theme switch: checked means cosmic, each toggle records switchTheme', async () => {
    analytics.setEnabled(true);
    const { user } = await openFrame();
    await user.click(screen.getByRole('button', { name: 'Settings' }));
    const panel = await screen.findByRole('dialog', { name: 'Settings' });
    const cosmic = within(panel).getByRole('switch', { name: 'Cosmic' });
    expect(cosmic).not.toBeChecked();
    await user.click(cosmic);
    expect(cosmic).toBeChecked();
    expect(document.documentElement).toHaveAttribute('data-mantine-color-scheme', 'dark');
    expect(localStorage.getItem('fc-color-scheme')).toBe('dark');
    await user.click(cosmic);
    expect(document.documentElement).toHaveAttribute('data-mantine-color-scheme', 'light');
    expect(analytics.events().map((e) => [e.name, e.value])).toEqual([
      ['switchTheme', 'cosmic'],
      ['switchTheme', 'default'],
    ]);
  });
});

describe('menu sidebar', () => {
  it('has the dashboard and the UI-features sub-menu', async () => {
    const { user } = await openFrame();
    const nav = screen.getByRole('navigation', { name: 'Main menu' });
    expect(within(nav).getByRole('link', { name: 'Dashboard' })).toHaveAttribute('href', '/agent/dashboard');
    await user.click(within(nav).getByRole('button', { name: 'UI Features' }));
    for (const name of ['Buttons', 'Grid', 'Icons', 'Modals', 'Typography', 'Search Fields', 'Tabs']) {
      expect(await within(nav).findByRole('link', { name })).toBeInTheDocument();
    }
    expect(within(nav).getByRole('link', { name: 'Search Fields' })).toHaveAttribute(
      'href',
      '/pages/ui-features/search-fields',
    );
  });

  it('collapses 20 ms after a pick on small screens', async () => {
    const original = window.matchMedia;
    window.matchMedia = ((query: string) => ({
      ...original(query),
      matches: query.includes('max-width: 48em'),
    })) as typeof window.matchMedia;
    try {
      const { user } = await openFrame();
      const toggle = screen.getByRole('button', { name: 'Toggle sidebar' });
      expect(toggle).toHaveAttribute('aria-expanded', 'false');
      await user.click(toggle);
      expect(toggle).toHaveAttribute('aria-expanded', 'true');
      await user.click(
        within(screen.getByRole('navigation', { name: 'Main menu' })).getByRole('link', {
          name: 'Dashboard',
        }),
      );
      await waitFor(() => expect(toggle).toHaveAttribute('aria-expanded', 'false'));
    } finally {
      window.matchMedia = original;
    }
  });
});
