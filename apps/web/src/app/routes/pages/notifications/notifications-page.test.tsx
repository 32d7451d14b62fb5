import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { makeUser } from '../../../../testing/factories.ts';
import { json, mockFetch } from '../../../../testing/fetch-mock.ts';
import { renderWithProviders } from '../../../../testing/render.tsx';
import NotificationsPage from './notifications-page.tsx';

const hook = {
  id: 4,
  name: 'Ops hook',
  kind: 'webhook',
  addresses: [],
  url: 'https://ops.example.com/hook',
  has_secret: true,
  owner: { kind: 'agent', id: 1 },
  created_by: 'agent',
  created_at: '2026-11-27T10:00:00.000Z',
};

describe('notifications page', () => {
  it('tests a contact point and shows the outcome; creating one shows its secret once', async () => {
    const api = mockFetch({
      'GET /api/contact-points/': () => json([hook]),
      'GET /api/notification-policies/': () => json([]),
      'GET /api/notification-deliveries/': () => json([]),
      'POST /api/contact-points/4/test/': () =>
        json({
          id: 9,
          alert_id: null,
          contact_point_id: 4,
          event: 'test',
          status: 'failed',
          attempts: 1,
          last_status_code: 503,
          last_error: 'answered 503',
          created_at: '2026-11-27T10:01:00.000Z',
          delivered_at: null,
        }),
      'POST /api/contact-points/': () =>
        json({ ...hook, id: 5, name: 'Second', secret: 'shown-once-secret-value-0123456789' }, 201),
    });
    const { user } = renderWithProviders(<NotificationsPage />, { user: makeUser() });
    const table = await screen.findByRole('table', { name: 'Contact points' });
    expect(within(table).getByText('Ops hook')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Send a test to Ops hook' }));
    expect(await within(table).findByText('Failed')).toBeInTheDocument();
    expect(within(table).getByText('503')).toBeInTheDocument();

    const form = screen.getByRole('form', { name: 'Add contact point' });
    await user.type(within(form).getByRole('textbox', { name: 'Name' }), 'Second');
    await user.type(within(form).getByRole('textbox', { name: 'URL' }), 'https://hooks.example.com/x');
    await user.click(within(form).getByRole('button', { name: 'Add contact point' }));
    expect(await screen.findByText('shown-once-secret-value-0123456789')).toBeInTheDocument();
    expect(api.find('POST', '/api/contact-points/')[0]!.body).toEqual({
      name: 'Second',
      kind: 'webhook',
      url: 'https://hooks.example.com/x',
    });
  }, 40_000);
});
