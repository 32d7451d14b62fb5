import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { makeUser } from '../../../../testing/factories.ts';
import { mockFetch } from '../../../../testing/fetch-mock.ts';
import { renderWithProviders } from '../../../../testing/render.tsx';
import AgentDashboardPage from './agent-dashboard-page.tsx';

describe('a user without a role', () => {
  it('sees an empty console that says an administrator must grant access', async () => {
    const api = mockFetch({});
    renderWithProviders(<AgentDashboardPage />, {
      user: makeUser({ username: 'newcomer', agent: null, companies: [], sites: [] }),
      route: '/agent/dashboard',
      path: 'agent/dashboard',
    });
    const note = await screen.findByTestId('no-access');
    expect(note).toHaveTextContent('No fleet assigned');
    expect(note).toHaveTextContent('An administrator must grant you access to a company or a site');
    expect(screen.queryByRole('region')).not.toBeInTheDocument();
    expect(api.calls).toHaveLength(0);
  });
});
