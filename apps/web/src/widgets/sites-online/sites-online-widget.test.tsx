import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { makeUser } from '../../testing/factories.ts';
import { json, mockFetch } from '../../testing/fetch-mock.ts';
import { renderWithProviders } from '../../testing/render.tsx';
import { countSites, SitesOnlineWidget } from './components/sites-online-widget.tsx';

const site = (id: number, status: number) => ({ id, title: `Site ${id}`, number: String(id), status });

describe('Sites online widget', () => {
  it('counts status 0 as offline and the rest as online', () => {
    expect(countSites([site(1, 0), site(2, 3), site(3, 0), site(4, 1)])).toEqual({
      total: 4,
      offline: 2,
      online: 2,
    });
    expect(countSites(undefined)).toEqual({ total: 0, offline: 0, online: 0 });
  });

  it('shows both readings over the total, padded to 3 digits', async () => {
    mockFetch({
      'GET /api/company/11/sites/': json([site(1, 0), site(2, 2), site(3, 1), site(4, 0), site(5, 4)]),
    });
    renderWithProviders(<SitesOnlineWidget scope={{ kind: 'company', id: 11 }} />, { user: makeUser() });
    const offline = await screen.findByRole('group', { name: 'Sites offline / total: 002/005' });
    const online = screen.getByRole('group', { name: 'Sites online / total: 003/005' });
    expect(offline).toHaveTextContent('002/005');
    expect(online).toHaveTextContent('003/005');
    expect(offline.querySelector('[data-greyed]')).toHaveAttribute('data-greyed', 'false');
  });

  it('greys a count of 0, and both counts when there are no sites', async () => {
    mockFetch({ 'GET /api/agent/7/sites/': json([site(1, 2), site(2, 1)]) });
    const view = renderWithProviders(<SitesOnlineWidget scope={{ kind: 'agent', id: 7 }} />, {
      user: makeUser(),
    });
    const offline = await screen.findByRole('group', { name: 'Sites offline / total: 000/002' });
    expect(offline.querySelector('[data-greyed]')).toHaveAttribute('data-greyed', 'true');
    expect(
      screen.getByRole('group', { name: 'Sites online / total: 002/002' }).querySelector('[data-greyed]'),
    ).toHaveAttribute('data-greyed', 'false');
    view.unmount();

    mockFetch({ 'GET /api/agent/8/sites/': json([]) });
    renderWithProviders(<SitesOnlineWidget scope={{ kind: 'agent', id: 8 }} />, { user: makeUser() });
    const none = await screen.findByRole('group', { name: 'Sites offline / total: 000/000' });
    expect(none.querySelector('[data-greyed]')).toHaveAttribute('data-greyed', 'true');
    expect(
      screen.getByRole('group', { name: 'Sites online / total: 000/000' }).querySelector('[data-greyed]'),
    ).toHaveAttribute('data-greyed', 'true');
    expect(screen.getByText('No sites')).toBeInTheDocument();
  });
});
