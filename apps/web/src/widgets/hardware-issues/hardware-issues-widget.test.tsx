import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { makeAlert, makeSiteDetail, makeUser } from '../../testing/factories.ts';
import { json, mockFetch } from '../../testing/fetch-mock.ts';
import { renderWithProviders } from '../../testing/render.tsx';
import { HardwareIssuesWidget } from './components/hardware-issues-widget.tsx';

describe('Hardware issues widget', () => {
  it('asks for event types 1, 2, 12, 13, 14, 15 and shows date, terminal number and issue', async () => {
    const fetch = mockFetch({
      'GET /api/alerts/site/101/': json([
        makeAlert({ number: '10010002', issue: 'Printer jam', site_id: 101, company_id: 11 }),
      ]),
      // The site's company, for the hardware log link, comes with the site's detail.
      'GET /api/site/detail/101/': json(makeSiteDetail()),
    });
    renderWithProviders(<HardwareIssuesWidget scope={{ kind: 'site', id: 101 }} />, { user: makeUser() });
    const table = await screen.findByRole('table', { name: 'Hardware issues' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Date', 'Terminal number', 'Issue']);
    expect(within(table).getByText('Printer jam')).toBeInTheDocument();
    expect(fetch.find('GET', '/api/alerts/site/101/')[0].url.searchParams.getAll('event_type')).toEqual([
      '1',
      '2',
      '12',
      '13',
      '14',
      '15',
    ]);
    expect(await screen.findByRole('link', { name: 'Hardware log' })).toHaveAttribute(
      'href',
      '/company/11/site/101/terminal/hardware/log/',
    );
  });

  it("a row's terminal number leads to the terminal's page; without its id, to the site's hardware log", async () => {
    mockFetch({
      'GET /api/alerts/site/101/': json([
        makeAlert({ id: 1, number: '10010002', site_id: 101, company_id: 11, terminal_id: 7 }),
        makeAlert({ id: 2, number: '10010003', site_id: 101, company_id: 11 }),
      ]),
      'GET /api/site/detail/101/': json({
        id: 101,
        title: 'Leeds Road',
        number: '101',
        company_id: 11,
        lat: null,
        lng: null,
        timezone: 'Europe/London',
      }),
    });
    renderWithProviders(<HardwareIssuesWidget scope={{ kind: 'site', id: 101 }} />, { user: makeUser() });
    const table = await screen.findByRole('table', { name: 'Hardware issues' });
    expect(await within(table).findByRole('link', { name: '10010002' })).toHaveAttribute(
      'href',
      '/site/101/terminal/7',
    );
    expect(within(table).getByRole('link', { name: '10010003' })).toHaveAttribute(
      'href',
      '/company/11/site/101/terminal/hardware/log/',
    );
  });

  it('agents also see customer_name and site_name', async () => {
    mockFetch({
      'GET /api/alerts/agent/7/': json([
        makeAlert({ customer_name: 'Northern Fuels', site_name: 'Leeds Road' }),
      ]),
    });
    renderWithProviders(<HardwareIssuesWidget scope={{ kind: 'agent', id: 7 }} size2X />, {
      user: makeUser(),
    });
    const table = await screen.findByRole('table', { name: 'Hardware issues' });
    expect(within(table).getByRole('columnheader', { name: 'Customer name' })).toBeInTheDocument();
    expect(within(table).getByRole('columnheader', { name: 'Site name' })).toBeInTheDocument();
    expect(within(table).getByText('Northern Fuels')).toBeInTheDocument();
    expect(screen.getByTestId('hardware-issues').getAttribute('style')).toContain('28.125rem');
  });

  it('shows NO_HARDWARE_ISSUES when there are none', async () => {
    mockFetch({ 'GET /api/alerts/company/11/': json([]) });
    renderWithProviders(<HardwareIssuesWidget scope={{ kind: 'company', id: 11 }} />, { user: makeUser() });
    expect(await screen.findByText('No hardware issues')).toBeInTheDocument();
  });

  it('lists active issues worst first and acknowledges one in a click (no note needed)', async () => {
    let acked = false;
    const base = makeAlert({
      id: 8,
      event_type: 15,
      text: 'Modem failure: no carrier',
      issue: 'Modem failure',
    });
    const api = mockFetch({
      'GET /api/alerts/agent/7/': () =>
        json([acked ? { ...base, acknowledged_at: '2024-05-01T10:07:00Z', acknowledged_by: 'agent' } : base]),
      'POST /api/alerts/8/ack/': () => {
        acked = true;
        return json({ ...base, acknowledged_at: '2024-05-01T10:07:00Z', acknowledged_by: 'agent' });
      },
    });
    const { user } = renderWithProviders(<HardwareIssuesWidget scope={{ kind: 'agent', id: 7 }} />, {
      user: makeUser(),
    });
    await user.click(await screen.findByRole('button', { name: 'Ack: Modem failure: no carrier' }));
    await user.click(await screen.findByRole('button', { name: 'Acknowledge' }));
    expect(await screen.findByText(/agent ·/)).toBeInTheDocument();
    expect(api.find('POST', '/api/alerts/8/ack/')[0]!.body).toEqual({});
    const [call] = api.find('GET', '/api/alerts/agent/7/');
    expect(call!.url.searchParams.get('state')).toBe('active');
    expect(call!.url.searchParams.get('sort')).toBe('severity');
  });
});
