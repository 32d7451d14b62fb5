import { screen, waitFor, within } from '@testing-library/react';
import type { RouteObject } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { makeUser } from '../../../../testing/factories.ts';
import { json, type MockRequest, mockFetch } from '../../../../testing/fetch-mock.ts';
import { renderWithProviders } from '../../../../testing/render.tsx';
import type { AvailabilityChartProps } from './availability-chart.tsx';
import ReportsPage from './reports-page.tsx';
import { periodOf } from './reports-queries.ts';

// jsdom has no canvas: a stand-in shows what the chart is handed.
vi.mock('./availability-chart.tsx', () => ({
  default: (p: AvailabilityChartProps) => (
    <div role="img" aria-label={p.label}>
      {p.rows.map((r) => r.name).join(', ')}
    </div>
  ),
}));

const routes: RouteObject[] = [{ path: 'reports', element: <ReportsPage /> }];
/** What the server answers to `POST /api/reports/schedules/`: the schedule sent, stored. */
const createdSchedule = (req: MockRequest) => ({
  id: 5,
  ...(req.body as object),
  next_run_at: '2026-11-30T00:00:00.000Z',
  last_run_at: null,
  created_by: 'agent',
  created_at: '2026-11-27T00:00:00.000Z',
});
const measures = (availability: number, downtime: number) => ({
  period_s: 2_592_000,
  excluded_s: 3600,
  downtime_s: downtime,
  availability,
  incidents: 2,
  mtta_s: 600,
  mttr_s: 7200,
});

describe('Reports page', () => {
  it('shows the availability table with the worst sites charted, the alerts, and schedules', async () => {
    let schedules: unknown[] = [];
    const api = mockFetch({
      'GET /api/reports/agent/7/availability/': json({
        from: '2026-10-28T00:00:00.000Z',
        to: '2026-11-27T00:00:00.000Z',
        rows: [
          { id: 2, name: 'Leeds Road', site_id: 2, ...measures(0.98, 51_000) },
          { id: 3, name: 'York Gate', site_id: 3, ...measures(1, 0) },
        ],
        total: { id: null, name: 'Total', site_id: null, ...measures(0.99, 51_000) },
      }),
      'GET /api/reports/agent/7/alerts/': json([
        {
          event_type: 3,
          name: 'Terminal offline',
          severity: 'critical',
          count: 4,
          silenced: 1,
          acknowledged: 2,
          cleared: 3,
          mtta_s: 600,
          mttr_s: 7200,
          p90_ttr_s: 9000,
        },
      ]),
      'GET /api/reports/schedules/': () => json(schedules),
      'GET /api/agent/7/sites/': json([]),
      'POST /api/reports/schedules/': (req) => {
        const s = createdSchedule(req);
        schedules = [s];
        return json(s, 201);
      },
    });
    const { user } = renderWithProviders(null, { routes, route: '/reports', user: makeUser() });
    const table = await screen.findByRole('table', { name: 'Availability' });
    const rows = await within(table).findAllByRole('row');
    expect(rows.map((r) => r.textContent)).toEqual([
      expect.stringContaining('Site'),
      expect.stringContaining('Leeds Road'),
      expect.stringContaining('York Gate'),
      expect.stringContaining('Total'),
    ]);
    expect(await screen.findByRole('img', { name: /worst sites/ })).toHaveTextContent('Leeds Road');
    expect(screen.getByRole('img', { name: /worst sites/ })).not.toHaveTextContent('York Gate');
    expect(await screen.findByRole('table', { name: 'Alerts' })).toHaveTextContent('Terminal offline');
    expect(screen.getByRole('button', { name: 'Download Availability as PDF' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Download Alerts as CSV' })).toBeInTheDocument();

    await user.click(screen.getByText('7 days'));
    await waitFor(() => {
      const asked = api.find('GET', '/api/reports/agent/7/availability/').at(-1)!.url.searchParams;
      expect(Date.parse(asked.get('to')!) - Date.parse(asked.get('from')!)).toBe(7 * 86_400_000);
    });

    await user.type(screen.getByRole('textbox', { name: 'Recipients' }), 'ops@example.com');
    await user.click(screen.getByRole('button', { name: 'Add schedule' }));
    expect(await screen.findByRole('table', { name: 'Scheduled reports' })).toHaveTextContent(
      'ops@example.com',
    );
    expect(api.find('POST', '/api/reports/schedules/')[0]!.body).toEqual({
      report: 'availability',
      scope: { kind: 'agent', id: 7 },
      every: 'week',
      format: 'pdf',
      recipients: ['ops@example.com'],
    });
  }, 60_000);

  it('reports on a company or site the user picks, kept in the URL, and schedules that scope', async () => {
    const report = (name: string) =>
      json({
        from: '2026-10-28T00:00:00.000Z',
        to: '2026-11-27T00:00:00.000Z',
        rows: [{ id: 2, name, site_id: 2, ...measures(0.98, 51_000) }],
        total: { id: null, name: 'Total', site_id: null, ...measures(0.98, 51_000) },
      });
    const api = mockFetch({
      'GET /api/reports/company/11/availability/': report('Company site'),
      'GET /api/reports/company/11/alerts/': json([]),
      'GET /api/reports/site/2/availability/': report('Terminal 0002-1'),
      'GET /api/reports/site/2/alerts/': json([]),
      'GET /api/reports/schedules/': json([]),
      'GET /api/agent/7/sites/': json([
        { id: 2, title: 'Leeds Road', number: '0002', status: 2, company_id: 11 },
        { id: 3, title: 'York Gate', number: '0003', status: 1, company_id: 12 },
      ]),
      'POST /api/reports/schedules/': (req) => json(createdSchedule(req), 201),
    });
    const { user, location } = renderWithProviders(null, {
      routes,
      route: '/reports?scope=company:11',
      user: makeUser(),
    });
    expect(await screen.findByRole('table', { name: 'Availability' })).toHaveTextContent('Company site');
    expect(api.find('GET', '/api/reports/agent/7/availability/')).toHaveLength(0);
    const picker = screen.getByRole('combobox', { name: 'Scope' });
    expect(picker).toHaveValue('Northern Fuels');

    await user.click(picker);
    await user.clear(picker);
    await user.type(picker, 'Leeds');
    await user.click(await screen.findByRole('option', { name: 'Leeds Road (0002)' }));
    expect(await screen.findByRole('table', { name: 'Availability' })).toHaveTextContent('Terminal 0002-1');
    await waitFor(() => expect(location.current.search).toBe('?scope=site%3A2'));

    await user.type(screen.getByRole('textbox', { name: 'Recipients' }), 'ops@example.com');
    await user.click(screen.getByRole('button', { name: 'Add schedule' }));
    await waitFor(() => expect(api.find('POST', '/api/reports/schedules/')).toHaveLength(1));
    expect(api.find('POST', '/api/reports/schedules/')[0]!.body).toMatchObject({
      scope: { kind: 'site', id: 2 },
    });
  }, 60_000);

  it("a scope outside the user's reach in the URL falls back to its own", async () => {
    mockFetch({
      'GET /api/reports/agent/7/availability/': json({
        from: '2026-10-28T00:00:00.000Z',
        to: '2026-11-27T00:00:00.000Z',
        rows: [],
        total: { id: null, name: 'Total', site_id: null, ...measures(1, 0) },
      }),
      'GET /api/reports/agent/7/alerts/': json([]),
      'GET /api/reports/schedules/': json([]),
      'GET /api/agent/7/sites/': json([]),
    });
    renderWithProviders(null, { routes, route: '/reports?scope=company:99', user: makeUser() });
    expect(await screen.findByRole('combobox', { name: 'Scope' })).toHaveValue('Whole fleet');
    await screen.findByRole('table', { name: 'Availability' });
  }, 60_000);

  it('period presets: 7 and 30 days end now, last month is the calendar month before, custom takes two days', () => {
    const now = new Date('2026-11-27T10:15:30Z');
    expect(periodOf('7d', now, { from: '', to: '' })).toEqual({
      from: '2026-11-20T10:15:00.000Z',
      to: '2026-11-27T10:15:00.000Z',
    });
    expect(periodOf('last-month', now, { from: '', to: '' })).toEqual({
      from: '2026-10-01T00:00:00.000Z',
      to: '2026-11-01T00:00:00.000Z',
    });
    expect(periodOf('custom', now, { from: '2026-11-01', to: '2026-11-03' })).toEqual({
      from: '2026-11-01T00:00:00.000Z',
      to: '2026-11-04T00:00:00.000Z',
    });
    expect(periodOf('custom', now, { from: '2026-11-05', to: '2026-11-03' })).toBeNull();
  });
});
