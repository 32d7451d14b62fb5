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
    await user.click(screen.getByRole('button', { name: 'About this widget' }));
    const dialog = await screen.findByRole('dialog', { name: 'Alerts' });
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });
});
