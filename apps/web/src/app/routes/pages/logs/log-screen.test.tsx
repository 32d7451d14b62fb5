import type { Alert } from '@forecourt/contract/fleet';
import { logRoutePatterns } from '@forecourt/contract/log-paths';
import { screen, waitFor, within } from '@testing-library/react';
import type { RouteObject } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { makeAlertLogEntry, makeSiteDetail, makeUser } from '../../../../testing/factories.ts';
import { json, type MockRequest, mockFetch } from '../../../../testing/fetch-mock.ts';
import { renderApp, renderWithProviders } from '../../../../testing/render.tsx';
import { LOG_PAGES } from './log-pages.tsx';

const routes: RouteObject[] = logRoutePatterns().map(([path, kind]) => {
  const Page = LOG_PAGES[kind];
  return { path, element: <Page /> };
});

/** An alert log row (newest first by id): a printer failure at Leeds Road, a minute apart. */
function alertRow(id: number, overrides: Partial<Alert> = {}) {
  const at = new Date(Date.UTC(2024, 4, 1, 10, 0, 0) - id * 60_000).toISOString();
  return makeAlertLogEntry({ id, started_at: at, created_at: at, number: '10010002', ...overrides });
}

const zones = json([
  { title: 'London', area: 'Europe', tz_title: 'GMT / BST', tz: 0, iana: 'Europe/London' },
]);
const siteDetail = json(
  makeSiteDetail({ id: 3, number: '0103', company_id: 1, timezone: 'America/New_York' }),
);

/** Rows newest first: `count` rows older than `before` (ids count down from 500). */
function pagedAlerts(total = 120) {
  return (req: MockRequest) => {
    const limit = Number(req.url.searchParams.get('limit_to'));
    const before = Number(req.url.searchParams.get('before') ?? total + 1);
    const rows = [];
    for (let id = before - 1; id >= 1 && rows.length < limit; id--) rows.push(alertRow(id));
    return json(rows);
  };
}

const lastCall = (calls: MockRequest[], path: string) => calls.filter((c) => c.url.pathname === path).at(-1);

describe('log screen', () => {
  beforeEach(() => {
    vi.stubGlobal(
      'URL',
      Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:csv'), revokeObjectURL: vi.fn() }),
    );
  });
  afterEach(() => vi.unstubAllGlobals());

  it('filters and search round-trip through the URL: remounting from the URL shows the same view', {
    timeout: 40_000,
  }, async () => {
    const api = mockFetch({
      'GET /api/agent/1/alert/log/': pagedAlerts(5),
      'GET /api/agent/1/time/zones/': zones,
    });
    const first = renderWithProviders(null, { routes, route: '/agent/1/alert/log/', user: makeUser() });
    expect(await screen.findByRole('heading', { level: 1, name: 'Alert log' })).toBeInTheDocument();
    await screen.findAllByText('Printer failure');

    const search = () => new URLSearchParams(first.location.current.search);
    await first.user.type(screen.getByLabelText('Search the log'), 'jam');
    await waitFor(() => expect(search().get('q')).toBe('jam'));
    await first.user.type(screen.getByLabelText('Terminal'), '10010002');
    await waitFor(() => expect(search().get('terminal')).toBe('10010002'));
    await first.user.type(await screen.findByLabelText('From (Europe/London)'), '2024-04-20');
    await waitFor(() => {
      const params = new URLSearchParams(first.location.current.search);
      expect(params.get('q')).toBe('jam');
      expect(params.get('terminal')).toBe('10010002');
      expect(params.get('from')).toBe('2024-04-20');
    });
    await waitFor(() => {
      const call = lastCall(api.calls, '/api/agent/1/alert/log/');
      expect(call?.url.searchParams.get('q')).toBe('jam');
      expect(call?.url.searchParams.get('terminal')).toBe('10010002');
      // A calendar day in the zone of the agent: midnight in London (BST) is 23:00 UTC the day before.
      expect(call?.url.searchParams.get('from')).toBe('2024-04-19T23:00:00.000Z');
    });
    const url = `${first.location.current.pathname}${first.location.current.search}`;
    expect(url).toBe('/agent/1/alert/log/?q=jam&terminal=10010002&from=2024-04-20');
    first.unmount();

    api.calls.length = 0;
    renderWithProviders(null, { routes, route: url, user: makeUser() });
    await screen.findByRole('heading', { level: 1, name: 'Alert log' });
    expect(screen.getByLabelText('Search the log')).toHaveValue('jam');
    expect(screen.getByLabelText('Terminal')).toHaveValue('10010002');
    expect(await screen.findByLabelText('From (Europe/London)')).toHaveValue('2024-04-20');
    await waitFor(() => {
      const call = lastCall(api.calls, '/api/agent/1/alert/log/');
      expect(call?.url.searchParams.get('q')).toBe('jam');
      expect(call?.url.searchParams.get('terminal')).toBe('10010002');
      expect(call?.url.searchParams.get('from')).toBe('2024-04-19T23:00:00.000Z');
    });
  });

  it('repeatable and checkbox filters come from the URL and reach the API', async () => {
    const api = mockFetch({
      'GET /api/site/3/pump/status/log/': json([]),
      'GET /api/site/detail/3/': siteDetail,
    });
    const view = renderWithProviders(null, {
      routes,
      route: '/site/3/pump/status/log?abnormal=true&pump=2',
      user: makeUser(),
    });
    expect(await screen.findByText('No entries match these filters.')).toBeInTheDocument();
    expect(screen.getByLabelText('Only abnormal (not 4000)')).toBeChecked();
    const call = lastCall(api.calls, '/api/site/3/pump/status/log/');
    expect(call?.url.searchParams.get('abnormal')).toBe('true');
    expect(call?.url.searchParams.get('pump')).toBe('2');

    await view.user.click(screen.getByLabelText('Only abnormal (not 4000)'));
    await waitFor(() => expect(view.location.current.search).toBe('?pump=2'));
    await view.user.click(screen.getByRole('button', { name: 'Clear filters' }));
    await waitFor(() => expect(view.location.current.search).toBe(''));
    expect(await screen.findByText('No entries yet.')).toBeInTheDocument();
  });

  it('state and acknowledged come from the URL and reach the API; a row is acknowledged in place', async () => {
    let acked = false;
    const api = mockFetch({
      'GET /api/agent/1/alert/log/': () =>
        json([
          alertRow(
            4,
            acked ? { acknowledged_at: '2024-05-01T10:05:00Z', acknowledged_by: 'agent', note: 'On it' } : {},
          ),
          alertRow(3, { acknowledged_at: '2024-05-01T09:00:00Z', acknowledged_by: 'company' }),
        ]),
      'POST /api/alerts/4/ack/': () => {
        acked = true;
        return json(
          alertRow(4, { acknowledged_at: '2024-05-01T10:05:00Z', acknowledged_by: 'agent', note: 'On it' }),
        );
      },
      'GET /api/agent/1/time/zones/': zones,
    });
    const view = renderWithProviders(null, {
      routes,
      route: '/agent/1/alert/log/?state=active&acknowledged=false',
      user: makeUser(),
    });
    await screen.findAllByText('Printer failure');
    const call = lastCall(api.calls, '/api/agent/1/alert/log/');
    expect(call?.url.searchParams.get('state')).toBe('active');
    expect(call?.url.searchParams.get('acknowledged')).toBe('false');
    expect(screen.getAllByText(/company ·/).length).toBeGreaterThan(0);
    await view.user.click(screen.getAllByRole('button', { name: 'Ack: Printer failure: paper jam 4' })[0]!);
    await view.user.type(await screen.findByRole('textbox', { name: 'Note (optional)' }), 'On it');
    await view.user.click(screen.getByRole('button', { name: 'Acknowledge' }));
    expect((await screen.findAllByText(/agent ·/)).length).toBeGreaterThan(0);
    expect(api.find('POST', '/api/alerts/4/ack/')[0]!.body).toEqual({ note: 'On it' });
  });

  it('pages with the cursor: Load more asks for rows before the last one shown', async () => {
    const api = mockFetch({
      'GET /api/agent/1/alert/log/': pagedAlerts(60),
      'GET /api/agent/1/time/zones/': zones,
    });
    const view = renderWithProviders(null, {
      routes,
      route: '/agent/1/alert/log?limit_to=25',
      user: makeUser(),
    });
    const table = await screen.findByRole('table', { name: 'Alert log' });
    expect(within(table).getAllByRole('row')).toHaveLength(26);
    expect(lastCall(api.calls, '/api/agent/1/alert/log/')?.url.searchParams.get('before')).toBeNull();

    await view.user.click(screen.getByRole('button', { name: 'Load more' }));
    await waitFor(() => expect(within(table).getAllByRole('row')).toHaveLength(51));
    const second = lastCall(api.calls, '/api/agent/1/alert/log/');
    expect(second?.url.searchParams.get('before')).toBe('36');
    expect(second?.url.searchParams.get('limit_to')).toBe('25');

    await view.user.click(screen.getByRole('button', { name: 'Load more' }));
    await waitFor(() => expect(within(table).getAllByRole('row')).toHaveLength(61));
    expect(lastCall(api.calls, '/api/agent/1/alert/log/')?.url.searchParams.get('before')).toBe('11');
    // A short page was the last: no more button.
    expect(screen.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument();
    expect(screen.getByText('All 60 entries shown')).toBeInTheDocument();
  });

  it('the CSV export asks the server for the filtered rows, with the auth header, and names the file', async () => {
    const api = mockFetch({
      'GET /api/company/1/site/3/terminal/hardware/log/': pagedAlerts(30),
      'GET /api/site/detail/3/': siteDetail,
      'GET /api/company/detail/1/': json({ id: 1, name: 'Northern Fuels', agent_id: 1 }),
    });
    const clicked: string[] = [];
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      clicked.push(this.download);
    });
    const view = renderWithProviders(null, {
      routes,
      route: '/company/1/site/3/terminal/hardware/log/?q=jam&event_type=1&event_type=2&terminal=10010002',
      user: makeUser(),
    });
    await screen.findByRole('table', { name: 'Hardware log' });
    expect(screen.getByText('Northern Fuels · Leeds Road (0103)')).toBeInTheDocument();
    await view.user.click(screen.getByRole('button', { name: 'Export CSV' }));
    await waitFor(() => expect(clicked).toEqual(['hardware-log-company-1-site-3.csv']));
    const csv = api.calls.find((c) => c.url.searchParams.get('format') === 'csv');
    expect(csv?.url.pathname).toBe('/api/company/1/site/3/terminal/hardware/log/');
    expect(csv?.url.searchParams.get('q')).toBe('jam');
    expect(csv?.url.searchParams.getAll('event_type')).toEqual(['1', '2']);
    expect(csv?.url.searchParams.get('terminal')).toBe('10010002');
    // Exactly the rows on screen (30 of them, fewer than a page).
    expect(csv?.url.searchParams.get('limit_to')).toBe('50');
    expect(csv?.headers.get('Accept')).toBe('text/csv');
    expect(csv?.headers.get('Authorization')).toMatch(/^JWT /);
    click.mockRestore();
  });

  it("shows times in each row's site zone, with the zone named", async () => {
    mockFetch({
      'GET /api/site/3/terminal/battery/log/': json([
        {
          id: 9,
          cursor: '9',
          created_at: '2024-05-01T10:00:00.000Z',
          terminal: { terminal_id: '10010002', id: 7 },
          customer: 'Leeds Road',
          site_number: '0103',
          timezone: 'America/New_York',
          life: 82,
        },
      ]),
      'GET /api/site/detail/3/': siteDetail,
    });
    renderWithProviders(null, { routes, route: '/site/3/terminal/battery/log', user: makeUser() });
    const table = await screen.findByRole('table', { name: 'Battery log' });
    const cells = within(table).getAllByRole('cell');
    expect(cells[0]).toHaveTextContent('01/05/2024, 06:00:00 GMT-4');
    expect(cells[2]).toHaveTextContent('82%');
    expect(screen.getByTestId('log-zone')).toHaveTextContent(
      "Times in the site's local time: America/New_York",
    );
  });

  it('outside the scope: a clear not-allowed message, and a way back to the dashboard', async () => {
    mockFetch({
      'GET /api/company/2/alert/log/': json({ data: { errors: ['Forbidden'] } }, 403),
      'GET /api/company/2/time/zones/': json({ data: { errors: ['Forbidden'] } }, 403),
      'GET /api/company/detail/2/': json({ data: { errors: ['Forbidden'] } }, 403),
    });
    renderWithProviders(null, { routes, route: '/company/2/alert/log', user: makeUser() });
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Not allowed');
    expect(alert).toHaveTextContent('You are not allowed to see this log');
    expect(screen.getByRole('link', { name: 'Back to dashboard' })).toHaveAttribute(
      'href',
      '/company/2/dashboard',
    );
    expect(screen.getByRole('button', { name: 'Export CSV' })).toBeDisabled();
  });

  it('a failing server shows the error with a retry', async () => {
    let fail = true;
    mockFetch({
      'GET /api/agent/1/connectivity/log/': () =>
        fail ? json({ data: { errors: ['Database is down'] } }, 503) : json([]),
      'GET /api/agent/1/time/zones/': zones,
    });
    const view = renderWithProviders(null, { routes, route: '/agent/1/connectivity/log', user: makeUser() });
    expect(await screen.findByText('Database is down')).toBeInTheDocument();
    fail = false;
    await view.user.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('No entries yet.')).toBeInTheDocument();
  });
});

describe('log routes', () => {
  it.each([
    ['/agent/1/alert/log/', 'Alert log'],
    ['/agent/1/alert/log', 'Alert log'],
    ['/company/1/connectivity/log', 'Connectivity log'],
    ['/site/3/pump/activation/log/', 'Pump activation log'],
    ['/site/3/pump/status/log', 'Pump status log'],
    ['/site/3/pump/status/log/', 'Pump status log'],
    ['/company/1/shock/alert/log', 'Shock alert log'],
    ['/site/3/terminal/battery/log', 'Battery log'],
    ['/site/3/terminal/environment/log', 'Environment log'],
    ['/site/3/terminal/flashdrive/log', 'Flash drive log'],
    ['/company/1/site/3/terminal/hardware/log/', 'Hardware log'],
    ['/agent/1/terminal/reboot/log/', 'Reboot log'],
    ['/company/1/terminal/reboot/log/', 'Reboot log'],
    ['/site/3/terminal/reboot/log/', 'Reboot log'],
  ])('%s opens the %s inside the app', async (route, title) => {
    mockFetch({});
    renderApp(route, { user: makeUser() });
    expect(await screen.findByRole('heading', { level: 1, name: title })).toBeInTheDocument();
  });
});

describe('header search', () => {
  it('typing in the header search searches the log (kept in the URL)', async () => {
    const { emitHeaderSearch } = await import('../../../../lib/search-store.ts');
    emitHeaderSearch('');
    const api = mockFetch({
      'GET /api/agent/1/alert/log/': json([alertRow(5)]),
      'GET /api/agent/1/time/zones/': zones,
    });
    const view = renderWithProviders(null, { routes, route: '/agent/1/alert/log/', user: makeUser() });
    await screen.findByRole('table', { name: 'Alert log' });
    emitHeaderSearch('leeds');
    await waitFor(() => expect(view.location.current.search).toBe('?q=leeds'));
    await waitFor(() => expect(screen.getByLabelText('Search the log')).toHaveValue('leeds'));
    await waitFor(() =>
      expect(lastCall(api.calls, '/api/agent/1/alert/log/')?.url.searchParams.get('q')).toBe('leeds'),
    );
    emitHeaderSearch('');
  });
});
