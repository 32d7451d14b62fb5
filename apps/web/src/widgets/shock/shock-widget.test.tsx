import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { makeUser } from '../../testing/factories.ts';
import { json, mockFetch } from '../../testing/fetch-mock.ts';
import { renderWithProviders } from '../../testing/render.tsx';
import { ShockWidget, shockSiteName } from './components/shock-widget.tsx';

describe('Shock alert widget', () => {
  it('splits the site name off card_acceptor_name', () => {
    expect(shockSiteName('Leeds Road/Leeds')).toBe('Leeds Road');
    expect(shockSiteName('Solo')).toBe('Solo');
    expect(shockSiteName(undefined)).toBe('');
  });

  it('shows level, site name linked to the site dashboard, terminal no and date M/d/yy', async () => {
    const fetch = mockFetch({
      'GET /api/company/11/shock/log/': json([
        {
          reading: 7,
          created_at: '2024-03-09T12:00:00Z',
          terminal: { site: 101, card_acceptor_name: 'Leeds Road/Leeds', terminal_id: '10010002' },
        },
      ]),
    });
    renderWithProviders(<ShockWidget scope={{ kind: 'company', id: 11 }} />, { user: makeUser() });
    const table = await screen.findByRole('table', { name: 'Shock alert' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Level', 'Site name', 'Terminal no', 'Date']);
    expect(within(table).getByRole('link', { name: 'Leeds Road' })).toHaveAttribute(
      'href',
      '/company/11/site/101/dashboard',
    );
    expect(within(table).getByText('10010002')).toBeInTheDocument();
    expect(within(table).getByText('3/9/24')).toBeInTheDocument();
    expect(within(table).getByText('7')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Shock log' })).toHaveAttribute(
      'href',
      '/company/11/shock/alert/log',
    );
    expect(fetch.calls[0].url.searchParams.get('limit_to')).toBe('50');
  });
});
