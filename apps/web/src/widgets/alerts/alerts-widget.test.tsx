import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { makeAlert, makeUser } from '../../testing/factories.ts';
import { json, mockFetch } from '../../testing/fetch-mock.ts';
import { renderWithProviders } from '../../testing/render.tsx';
import { AlertsWidget, toAlertRow } from './components/alerts-widget.tsx';

describe('Alerts widget', () => {
  it('names each event by the text before the first colon', async () => {
    mockFetch({
      'GET /api/alerts/agent/7/': json([
        makeAlert({ id: 1, text: 'Terminal offline: 0101-2 stopped answering: twice' }),
        makeAlert({ id: 2, text: 'Paper low' }),
      ]),
    });
    renderWithProviders(<AlertsWidget scope={{ kind: 'agent', id: 7 }} />, { user: makeUser() });
    const table = await screen.findByRole('table', { name: 'Alerts' });
    expect(within(table).getByRole('columnheader', { name: 'Event' })).toBeInTheDocument();
    expect(within(table).getByRole('columnheader', { name: 'Date' })).toBeInTheDocument();
    expect(within(table).getByText('Terminal offline')).toBeInTheDocument();
    expect(within(table).getByText('Paper low')).toBeInTheDocument();
    expect(within(table).queryByText(/stopped answering/)).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Alert log' })).toHaveAttribute('href', '/agent/7/alert/log/');
  });

  it('searches every field of a row, case-insensitively', async () => {
    mockFetch({
      'GET /api/alerts/company/11/': json([
        makeAlert({ id: 1, text: 'Door open: cabinet', site_name: 'Leeds Road' }),
        makeAlert({ id: 2, text: 'Paper low: printer', site_name: 'York Way' }),
      ]),
    });
    const { user } = renderWithProviders(<AlertsWidget scope={{ kind: 'company', id: 11 }} />, {
      user: makeUser(),
    });
    await screen.findByText('Door open');
    await user.type(screen.getByRole('textbox', { name: 'Search Alerts' }), 'YORK');
    expect(screen.queryByText('Door open')).not.toBeInTheDocument();
    expect(screen.getByText('Paper low')).toBeInTheDocument();
  });

  it('shows NO_EVENTS when there are none', async () => {
    mockFetch({ 'GET /api/alerts/site/5/': json([]) });
    renderWithProviders(<AlertsWidget scope={{ kind: 'site', id: 5 }} />, { user: makeUser() });
    expect(await screen.findByText('No events')).toBeInTheDocument();
  });

  it('bad data gives an error state, not a crash', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    mockFetch({ 'GET /api/alerts/agent/7/': json([{ id: 'x', text: null }]) });
    renderWithProviders(<AlertsWidget scope={{ kind: 'agent', id: 7 }} />, { user: makeUser() });
    expect(await screen.findByText('This widget could not load its data.')).toBeInTheDocument();
    // Odd but valid-shaped records still give a row.
    expect(toAlertRow({ id: 3 }, 0)).toMatchObject({ event: '-', date: '-' });
  });

  it('opens its info modal with a Close button', async () => {
    mockFetch({ 'GET /api/alerts/agent/7/': json([]) });
    const { user } = renderWithProviders(<AlertsWidget scope={{ kind: 'agent', id: 7 }} />, {
      user: makeUser(),
    });
    await user.click(screen.getByRole('button', { name: 'About Alerts' }));
    const dialog = await screen.findByRole('dialog', { name: 'Alerts' });
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('asks for the active alerts, worst first, with their severity', async () => {
    const api = mockFetch({
      'GET /api/alerts/agent/7/': json([
        makeAlert({ id: 1, severity: 'critical', text: 'Modem failure: no carrier' }),
      ]),
    });
    renderWithProviders(<AlertsWidget scope={{ kind: 'agent', id: 7 }} />, { user: makeUser() });
    const table = await screen.findByRole('table', { name: 'Alerts' });
    expect(within(table).getByText('Critical')).toBeInTheDocument();
    const [call] = api.find('GET', '/api/alerts/agent/7/');
    expect(call!.url.searchParams.get('state')).toBe('active');
    expect(call!.url.searchParams.get('sort')).toBe('severity');
  });

  it('acknowledges a row with a note, then shows who and when', async () => {
    let acked = false;
    const acknowledged = makeAlert({
      id: 5,
      text: 'Printer failure: paper jam',
      acknowledged_at: '2024-05-01T10:05:00Z',
      acknowledged_by: 'agent',
      note: 'Paper ordered',
    });
    const api = mockFetch({
      'GET /api/alerts/site/5/': () =>
        json([acked ? acknowledged : makeAlert({ id: 5, text: 'Printer failure: paper jam' })]),
      'POST /api/alerts/5/ack/': () => {
        acked = true;
        return json(acknowledged);
      },
    });
    const { user } = renderWithProviders(<AlertsWidget scope={{ kind: 'site', id: 5 }} />, {
      user: makeUser(),
    });
    await user.click(await screen.findByRole('button', { name: 'Ack: Printer failure: paper jam' }));
    await user.type(await screen.findByRole('textbox', { name: 'Note (optional)' }), 'Paper ordered');
    await user.click(screen.getByRole('button', { name: 'Acknowledge' }));
    expect(await screen.findByText(/agent ·/)).toBeInTheDocument();
    expect(screen.getByText('Paper ordered')).toBeInTheDocument();
    expect(api.find('POST', '/api/alerts/5/ack/')[0]!.body).toEqual({ note: 'Paper ordered' });
    expect(screen.queryByRole('button', { name: /^Ack: / })).not.toBeInTheDocument();
    // A site has no by-site view.
    expect(screen.queryByRole('radiogroup', { name: 'Alerts view' })).not.toBeInTheDocument();
  });

  it('toggles to one row per site, worst first, each opening that site’s active alert log', async () => {
    mockFetch({
      'GET /api/alerts/agent/7/': json([makeAlert({ id: 1 })]),
      'GET /api/alerts/agent/7/sites/': json([
        {
          site_id: 3,
          title: 'York Way',
          number: '0003',
          active: 4,
          unacknowledged: 3,
          worst_severity: 'critical',
          latest_at: '2024-05-01T10:00:00Z',
        },
        {
          site_id: 9,
          title: 'Leeds Road',
          number: '0009',
          active: 9,
          unacknowledged: 9,
          worst_severity: 'minor',
          latest_at: '2024-05-01T11:00:00Z',
        },
      ]),
    });
    const { user } = renderWithProviders(<AlertsWidget scope={{ kind: 'agent', id: 7 }} />, {
      user: makeUser(),
    });
    await screen.findByRole('table', { name: 'Alerts' });
    await user.click(screen.getByText('By site'));
    const table = await screen.findByRole('table', { name: 'By site' });
    const links = within(table).getAllByRole('link');
    expect(links.map((l) => l.textContent)).toEqual(['York Way', 'Leeds Road']);
    expect(links[0]).toHaveAttribute('href', '/site/3/alert/log/?state=active');
    expect(within(table).getByText('Critical')).toBeInTheDocument();
    await user.click(screen.getByText('List'));
    expect(await screen.findByRole('table', { name: 'Alerts' })).toBeInTheDocument();
  });
});
