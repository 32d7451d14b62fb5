import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { makeUser } from '../../testing/factories.ts';
import { json, mockFetch } from '../../testing/fetch-mock.ts';
import { renderWithProviders } from '../../testing/render.tsx';
import { ConnectivityWidget } from './components/connectivity-widget.tsx';

const sites = [
  { id: 1, title: 'A', number: '1', status: 0 },
  { id: 2, title: 'B', number: '2', status: 2 },
  { id: 3, title: 'C', number: '3', status: 1 },
];

describe('Connectivity widget', () => {
  it('a company sees offline/online site counts and the short list (limit_to=10, offline=true)', async () => {
    const fetch = mockFetch({
      'GET /api/company/11/connectivity/': json([
        { site_id: 1, title: 'Leeds Road', number: '10010002', status: 'off', date: '2024-05-01T10:00:00Z' },
      ]),
      'GET /api/company/11/sites/': json(sites),
    });
    const { user } = renderWithProviders(<ConnectivityWidget scope={{ kind: 'company', id: 11 }} />, {
      user: makeUser(),
    });
    await screen.findByRole('group', { name: 'Offline: 1' });
    expect(screen.getByRole('group', { name: 'Online: 2' })).toHaveTextContent('002');
    const table = screen.getByRole('table', { name: 'Connectivity' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Status', 'Site name', 'Terminal no', 'Date']);
    expect(within(table).getByText('Leeds Road')).toBeInTheDocument();
    const call = fetch.find('GET', '/api/company/11/connectivity/')[0];
    expect(call.url.searchParams.get('limit_to')).toBe('10');
    expect(call.url.searchParams.get('offline')).toBe('true');
    expect(screen.getByRole('link', { name: 'Connectivity log' })).toHaveAttribute(
      'href',
      '/company/11/connectivity/log',
    );
    await user.type(screen.getByRole('textbox', { name: 'Search Connectivity' }), 'nowhere');
    expect(screen.getByText('No matching rows')).toBeInTheDocument();
  });

  it('shows NO_CONNECTIVITY_ERRORS with an empty list', async () => {
    mockFetch({ 'GET /api/agent/7/connectivity/': json([]), 'GET /api/agent/7/sites/': json(sites) });
    renderWithProviders(<ConnectivityWidget scope={{ kind: 'agent', id: 7 }} />, { user: makeUser() });
    expect(await screen.findByText('No connectivity errors')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Connectivity log' })).toHaveAttribute(
      'href',
      '/agent/7/connectivity/log',
    );
  });
});
