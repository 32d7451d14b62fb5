import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { makeUser } from '../../../../testing/factories.ts';
import { json, mockFetch } from '../../../../testing/fetch-mock.ts';
import { renderWithProviders } from '../../../../testing/render.tsx';
import { NotificationsSection } from './notifications-section.tsx';

describe('profile: alert mail', () => {
  it('shows the saved minimum severity and saves a new one', async () => {
    let saved: string | null = null;
    const api = mockFetch({
      'GET /api/user/notifications/': () => json({ email_min_severity: saved }),
      'PUT /api/user/notifications/': (req) => {
        saved = (req.body as { email_min_severity: string | null }).email_min_severity;
        return json({ email_min_severity: saved });
      },
    });
    const { user } = renderWithProviders(<NotificationsSection />, { user: makeUser() });
    const select = (await screen.findByRole('combobox', {
      name: 'Mail me new alerts from',
    })) as HTMLSelectElement;
    await waitFor(() => expect(select).toBeEnabled());
    expect(select.options[select.selectedIndex]?.text).toBe('No mail');
    expect(screen.getByRole('button', { name: 'Save' })).toBeDisabled();
    await user.selectOptions(select, 'Major');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Notification settings saved')).toBeInTheDocument();
    expect(api.find('PUT', '/api/user/notifications/')[0]!.body).toEqual({ email_min_severity: 'major' });
  });
});
