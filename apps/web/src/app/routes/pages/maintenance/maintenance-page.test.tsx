import type { MaintenanceWindow } from '@forecourt/contract/maintenance';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { makeSiteDetail, makeUser } from '../../../../testing/factories.ts';
import { json, mockFetch } from '../../../../testing/fetch-mock.ts';
import { renderWithProviders } from '../../../../testing/render.tsx';
import MaintenancePage from './maintenance-page.tsx';

const siteUser = makeUser({ username: 'site', agent: null, companies: [] });
const hour = 3_600_000;
const window = (overrides: Partial<MaintenanceWindow> = {}): MaintenanceWindow => ({
  id: 3,
  target: { scope: { kind: 'site', id: 101 }, tags: [] },
  starts_at: new Date(Date.now() - hour).toISOString(),
  ends_at: new Date(Date.now() + hour).toISOString(),
  recurrence: null,
  reason: 'Pump replacement',
  created_by: 'site',
  created_at: new Date(Date.now() - 2 * hour).toISOString(),
  active: true,
  ...overrides,
});

describe('maintenance page', () => {
  it('lists the windows of each site in its time zone, and ends one now after asking', async () => {
    const api = mockFetch({
      'GET /api/maintenance/': json([
        window(),
        window({
          id: 4,
          recurrence: { weekdays: [7], start: '02:00', duration_min: 120 },
          reason: 'Weekly software window',
          active: false,
          starts_at: new Date(Date.now() + hour).toISOString(),
          ends_at: new Date(Date.now() + 900 * hour).toISOString(),
        }),
        window({
          id: 5,
          reason: 'Long gone',
          active: false,
          ends_at: new Date(Date.now() - 1000).toISOString(),
        }),
      ]),
      'GET /api/site/detail/101/': json(makeSiteDetail()),
      'DELETE /api/maintenance/3/': json(window({ active: false, ends_at: new Date().toISOString() })),
    });
    const { user } = renderWithProviders(<MaintenancePage />, { user: siteUser, route: '/maintenance' });
    const site = await screen.findByRole('region', { name: 'Leeds Road (0101)' });
    expect(await within(site).findByText('Site time (Europe/London)')).toBeInTheDocument();
    const items = within(site).getAllByRole('listitem');
    expect(items).toHaveLength(2);
    expect(within(items[0]!).getByText('Active now')).toBeInTheDocument();
    expect(within(items[0]!).getByText('Pump replacement')).toBeInTheDocument();
    expect(within(items[1]!).getByText('Sun · 02:00 for 120 min')).toBeInTheDocument();
    expect(screen.queryByText('Long gone')).not.toBeInTheDocument();

    await user.click(within(items[0]!).getByRole('button', { name: 'End now: Pump replacement' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'End this maintenance window now?' }));
    await user.click(dialog.getByRole('button', { name: 'End now' }));
    await waitFor(() => expect(api.find('DELETE', '/api/maintenance/3/')).toHaveLength(1));
  });

  it('declares a one-off window from now for two hours on the site user’s site', async () => {
    const api = mockFetch({
      'GET /api/maintenance/': json([]),
      'POST /api/targets/preview/': json({ count: 3, terminals: [] }),
      'POST /api/maintenance/': ({ body }) => json(window(body as Partial<MaintenanceWindow>), 201),
    });
    const { user } = renderWithProviders(<MaintenancePage />, { user: siteUser });
    expect(await screen.findByText('No active or upcoming maintenance windows.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'New maintenance window' }));
    const form = within(await screen.findByRole('form', { name: 'New maintenance window' }));
    expect(await form.findByText('Terminals reached now: 3')).toBeInTheDocument();
    await user.type(form.getByRole('textbox', { name: 'Reason' }), 'Canopy lights');
    await user.click(form.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(api.find('POST', '/api/maintenance/')).toHaveLength(1));
    const body = api.find('POST', '/api/maintenance/')[0].body as Record<string, string>;
    expect(body).toMatchObject({
      target: { scope: { kind: 'site', id: 101 }, tags: [] },
      recurrence: null,
      reason: 'Canopy lights',
    });
    const span = Date.parse(body.ends_at) - Date.parse(body.starts_at);
    expect(Math.abs(span - 2 * hour)).toBeLessThan(61_000);
    expect(Math.abs(Date.parse(body.starts_at) - Date.now())).toBeLessThan(61_000);
  });
});
