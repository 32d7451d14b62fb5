import { screen, waitFor, within } from '@testing-library/react';
import type { RouteObject } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { queriesTouchedBy } from '../../../../lib/api/queries-touched-by.ts';
import { makeAlertLogEntry, makeSiteDetail } from '../../../../testing/factories.ts';
import { json, type MockRequest, mockFetch } from '../../../../testing/fetch-mock.ts';
import { renderWithProviders } from '../../../../testing/render.tsx';
import { toLocalInput } from './chart-range.ts';
import type { HistoryChartProps } from './history-chart.tsx';
import TerminalPage from './terminal-page.tsx';

// The canvas chart is uPlot's (jsdom has no canvas): here a stand-in shows what it is handed, and can be "dragged".
vi.mock('./history-chart.tsx', () => ({
  HistoryChart: (p: HistoryChartProps) => (
    <div role="img" aria-label={p.ariaLabel} data-points={p.data.x.length} data-from={p.window[0]}>
      <button
        type="button"
        onClick={() => {
          const start = Math.ceil(p.window[0] / 1000) * 1000;
          p.onZoom(start + 3_600_000, start + 7_200_000);
        }}
      >
        drag across {p.label}
      </button>
    </div>
  ),
}));

const routes: RouteObject[] = [{ path: 'site/:siteId/terminal/:terminalId', element: <TerminalPage /> }];

const siteDetail = makeSiteDetail({
  id: 3,
  number: '0103',
  company_id: 1,
  lat: 53.8,
  lng: -1.5,
  city: 'Leeds',
});

const terminals = [
  {
    id: 7,
    terminal_id: '10030001',
    site_id: 3,
    connectivity: 'on',
    lat: 53.8,
    lng: -1.5,
    tags: ['canary', 'model-x'],
    software_version: '4.2.1',
  },
  { id: 8, terminal_id: '10030002', site_id: 3, connectivity: 'off', lat: null, lng: null },
];

const reading = (id: number, number: string, extra: Record<string, unknown>) => ({
  terminal: { terminal_id: number, id },
  created_at: '2026-11-27T09:00:00.000Z',
  ...extra,
});

function alert(id: number, terminalId: number, number: string) {
  const at = '2026-11-27T08:00:00.000Z';
  return makeAlertLogEntry({ id, terminal_id: terminalId, number, started_at: at, created_at: at });
}

const command = {
  id: 90,
  kind: 'reboot',
  terminal_id: 7,
  terminal_number: '10030001',
  site_id: 3,
  pump_id: null,
  pump_no: null,
  reboot_type: 'full',
  state: 'confirmed',
  requested_by: 'Agent Smith',
  created_at: '2026-11-27T07:00:00.000Z',
  updated_at: '2026-11-27T07:01:00.000Z',
  expires_at: '2026-11-27T07:10:00.000Z',
  detail: null,
  history: [],
};

/** The history endpoint: a reading per hour of the range asked for; the tail (no `to`) answers `tail` readings. */
function historyRoute(tail: () => Array<{ at: string; avg: number }>) {
  return (req: MockRequest) => {
    const q = req.url.searchParams;
    const signal = q.get('signal');
    const from = q.get('from') ?? '';
    const to = q.get('to');
    if (!to) {
      return json({
        signal,
        from,
        to: new Date().toISOString(),
        step_s: 0,
        points: tail().map((p) => ({ ...p, min: p.avg, max: p.avg, n: 1 })),
      });
    }
    const points = [];
    for (let t = Date.parse(from); t < Date.parse(to) && points.length < 24; t += 3_600_000) {
      points.push({ at: new Date(t).toISOString(), avg: 50, min: 50, max: 50, n: 1 });
    }
    return json({ signal, from, to, step_s: 0, points });
  };
}

function mockApi(tail: () => Array<{ at: string; avg: number }> = () => []) {
  return mockFetch({
    'GET /api/site/detail/3/': json(siteDetail),
    'GET /api/site/3/terminals/': json(terminals),
    'GET /api/site/3/terminals/battery/': json([
      reading(8, '10030002', { life: 90 }),
      reading(7, '10030001', { life: 3 }),
    ]),
    'GET /api/site/3/terminals/flashdisk/': json([reading(7, '10030001', { left: 61.25 })]),
    'GET /api/site/3/terminals/environment/': json([
      reading(7, '10030001', {
        temperature_main_board: 41.5,
        temperature_inside_cabinet: 28,
        humidity_inside_cabinet: 45,
      }),
    ]),
    'GET /api/terminal/7/telemetry/': historyRoute(tail),
    'GET /api/site/3/alert/log/': json([alert(11, 7, '10030001'), alert(12, 8, '7')]),
    'GET /api/terminal/7/commands/': json([command]),
  });
}

const historyCalls = (calls: MockRequest[], signal: string, withTo = true) =>
  calls.filter(
    (c) =>
      c.url.pathname === '/api/terminal/7/telemetry/' &&
      c.url.searchParams.get('signal') === signal &&
      c.url.searchParams.has('to') === withTo,
  );

const spanHours = (c: MockRequest | undefined) =>
  c
    ? (Date.parse(c.url.searchParams.get('to') ?? '') - Date.parse(c.url.searchParams.get('from') ?? '')) /
      3_600_000
    : NaN;

describe('terminal page', () => {
  afterEach(() => vi.unstubAllGlobals());

  it("shows the terminal's details, tags, latest readings, a chart per reading, its alerts and commands", async () => {
    const api = mockApi();
    renderWithProviders(null, { routes, route: '/site/3/terminal/7' });

    expect(await screen.findByRole('heading', { level: 1, name: 'Terminal 10030001' })).toBeInTheDocument();
    const details = screen.getByRole('region', { name: 'Details' });
    expect(within(details).getByTestId('terminal-number')).toHaveTextContent('10030001');
    expect(within(details).getByRole('link', { name: 'Leeds Road (0103)' })).toHaveAttribute(
      'href',
      '/company/1/site/3/dashboard',
    );
    expect(within(details).getByText('Northern Fuels')).toBeInTheDocument();
    expect(within(details).getByTestId('terminal-status')).toHaveTextContent('Online');
    expect(within(details).getByTestId('terminal-software')).toHaveTextContent('4.2.1');
    expect(within(details).getByTestId('terminal-tags')).toHaveTextContent('canarymodel-x');

    // This terminal's readings, not its neighbour's.
    const latest = screen.getByRole('region', { name: 'Latest readings' });
    expect(await within(latest).findByText('3%')).toBeInTheDocument();
    expect(within(latest).getByTestId('latest-flash_left')).toHaveTextContent('61.3%');
    expect(within(latest).getByTestId('latest-temperature_main_board')).toHaveTextContent('41.5 °C');
    expect(within(latest).getByTestId('latest-humidity_inside_cabinet')).toHaveTextContent('45%');

    for (const [signal, name] of [
      ['battery_life', 'Battery life'],
      ['flash_left', 'Flash drive left'],
      ['temperature_main_board', 'Board temperature'],
      ['temperature_inside_cabinet', 'Cabinet temperature'],
      ['humidity_inside_cabinet', 'Cabinet humidity'],
    ]) {
      const card = screen.getByRole('region', { name });
      expect(
        await within(card).findByRole('img', { name: new RegExp(`^${name} chart: 24 points`) }),
      ).toBeInTheDocument();
      expect(spanHours(historyCalls(api.calls, signal)[0])).toBe(24);
    }

    const alerts = screen.getByRole('region', { name: 'Recent alerts' });
    expect(await within(alerts).findAllByText('Printer failure')).toHaveLength(1);
    expect(api.find('GET', '/api/site/3/alert/log/')[0]?.url.searchParams.get('terminal')).toBe('10030001');
    expect(within(alerts).getByRole('link', { name: 'All alerts of this terminal' })).toHaveAttribute(
      'href',
      '/site/3/alert/log/?terminal=10030001',
    );
    const commands = screen.getByRole('region', { name: 'Recent commands' });
    expect(await within(commands).findByText('Full reboot of terminal 10030001')).toBeInTheDocument();
    expect(within(commands).getByText('Done')).toBeInTheDocument();
  });

  it('a preset reads its range again; a drag across a chart narrows every chart to it, kept in the address', async () => {
    const api = mockApi();
    const { user, location } = renderWithProviders(null, { routes, route: '/site/3/terminal/7' });
    await screen.findByRole('img', { name: /^Battery life chart: 24 points/ });

    await user.click(screen.getByRole('radio', { name: '7 d' }));
    await waitFor(() => expect(spanHours(historyCalls(api.calls, 'battery_life').at(-1))).toBe(7 * 24));
    expect(location.current.search).toBe('?range=7d');

    const card = screen.getByRole('region', { name: 'Cabinet humidity' });
    await user.click(await within(card).findByRole('button', { name: 'drag across Cabinet humidity' }));
    await waitFor(() => expect(spanHours(historyCalls(api.calls, 'battery_life').at(-1))).toBe(1));
    expect(spanHours(historyCalls(api.calls, 'humidity_inside_cabinet').at(-1))).toBe(1);
    const params = new URLSearchParams(location.current.search);
    expect(Date.parse(params.get('to') ?? '') - Date.parse(params.get('from') ?? '')).toBe(3_600_000);
    expect(screen.getByRole('radio', { name: 'Custom' })).toBeChecked();
    // The custom fields show the zoomed range in the site's time.
    expect(screen.getByLabelText('From')).toHaveValue(
      toLocalInput(Date.parse(params.get('from') ?? ''), 'Europe/London'),
    );
  });

  it('a custom range typed in the wrong order says so and reads nothing', async () => {
    const api = mockApi();
    const { user } = renderWithProviders(null, { routes, route: '/site/3/terminal/7' });
    await screen.findByRole('img', { name: /^Battery life chart: 24 points/ });
    await user.click(screen.getByRole('radio', { name: 'Custom' }));
    const before = api.calls.length;
    await user.clear(screen.getByLabelText('From'));
    await user.type(screen.getByLabelText('From'), '2026-11-27T10:00');
    await user.clear(screen.getByLabelText('To'));
    await user.type(screen.getByLabelText('To'), '2026-11-26T10:00');
    await user.click(screen.getByRole('button', { name: 'Show range' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('The end must be after the start.');
    expect(api.calls.slice(before).filter((c) => c.url.searchParams.has('to'))).toEqual([]);
  });

  it('a telemetry change of the terminal appends its new reading to the live charts, without reading the range again', async () => {
    let tail: Array<{ at: string; avg: number }> = [];
    const api = mockApi(() => tail);
    const { queryClient } = renderWithProviders(null, { routes, route: '/site/3/terminal/7' });
    const chart = await screen.findByRole('img', { name: /^Battery life chart: 24 points/ });
    const ranges = historyCalls(api.calls, 'battery_life').length;

    tail = [{ at: new Date(Date.now() + 1_000).toISOString(), avg: 2 }];
    for (const key of queriesTouchedBy({ kind: 'telemetry', siteId: 3, terminalId: 7 })) {
      await queryClient.invalidateQueries({ queryKey: key });
    }
    await waitFor(() => expect(chart).toHaveAttribute('data-points', '25'));
    expect(chart).toHaveAccessibleName(/latest 2%/);
    expect(historyCalls(api.calls, 'battery_life')).toHaveLength(ranges);
    // Another terminal's reading touches nothing here.
    const tails = historyCalls(api.calls, 'battery_life', false).length;
    for (const key of queriesTouchedBy({ kind: 'telemetry', siteId: 3, terminalId: 8 })) {
      await queryClient.invalidateQueries({ queryKey: key });
    }
    expect(historyCalls(api.calls, 'battery_life', false)).toHaveLength(tails);
  });

  it('a terminal its site does not have is not found; a bad id is a missing page', async () => {
    mockApi();
    renderWithProviders(null, { routes, route: '/site/3/terminal/99' });
    expect(await screen.findByRole('heading', { name: 'Terminal not found' })).toBeInTheDocument();
  });

  it('reads in Arabic', async () => {
    mockApi();
    renderWithProviders(null, { routes, route: '/site/3/terminal/7', lang: 'ar' });
    expect(
      await screen.findByRole('heading', { level: 1, name: 'الجهاز الطرفي 10030001' }),
    ).toBeInTheDocument();
    expect(screen.getByRole('radio', { name: '7 أيام' })).toBeInTheDocument();
  });
});
