import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { makeUser } from '../../../../testing/factories.ts';
import { json, mockFetch } from '../../../../testing/fetch-mock.ts';
import { renderWithProviders } from '../../../../testing/render.tsx';
import { TokenDialog } from './components/token-dialog.tsx';
import TerminalsPage from './terminals-page.tsx';

const agent = makeUser();
const terminal = {
  id: 5,
  site_id: 101,
  terminal_id: 'T-0005',
  card_acceptor_name: 'Leeds Road',
  lat: null,
  lng: null,
};

describe('terminals page: device token dialog', () => {
  it('warns first, shows the new token once with a copy button, and forgets it when closed', async () => {
    let issued = 0;
    const api = mockFetch({
      'POST /api/terminal/5/device-token/': () => json({ token: `secret-${++issued}` }),
      'GET /api/admin/terminals/': json([terminal]),
      'GET /api/admin/sites/': json([]),
    });
    const { user } = renderWithProviders(<TerminalsPage />, { user: agent });
    await user.click(await screen.findByRole('button', { name: 'Provision device token T-0005' }));
    const dialog = await screen.findByRole('dialog', { name: 'Device token of terminal T-0005' });
    expect(within(dialog).getByText(/old token stops working/i)).toBeInTheDocument();
    expect(api.find('POST', '/api/terminal/5/device-token/')).toHaveLength(0);

    await user.click(within(dialog).getByRole('button', { name: 'Provision device token' }));
    const token = await within(dialog).findByRole('textbox', { name: 'Device token' });
    expect(token).toHaveValue('secret-1');
    expect(within(dialog).getByText(/shown only this once/)).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Copy token' }));
    // user-event's clipboard stands in for the browser's.
    await waitFor(async () => expect(await navigator.clipboard.readText()).toBe('secret-1'));
    expect(await within(dialog).findByRole('button', { name: 'Copied' })).toBeInTheDocument();

    await user.click(within(dialog).getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(screen.queryByDisplayValue('secret-1')).not.toBeInTheDocument();

    // Opened again, it asks again: the old token is never shown twice.
    await user.click(screen.getByRole('button', { name: 'Provision device token T-0005' }));
    const again = await screen.findByRole('dialog', { name: 'Device token of terminal T-0005' });
    expect(within(again).queryByRole('textbox', { name: 'Device token' })).not.toBeInTheDocument();
    expect(api.find('POST', '/api/terminal/5/device-token/')).toHaveLength(1);
  });

  it('shows a refusal in the dialog', async () => {
    mockFetch({ 'POST /api/terminal/5/device-token/': json({ data: { errors: ['Not found.'] } }, 404) });
    const { user } = renderWithProviders(<TokenDialog terminal={terminal} opened onClose={() => {}} />, {
      user: agent,
    });
    await user.click(await screen.findByRole('button', { name: 'Provision device token' }));
    expect(await screen.findByText('Not found.')).toBeInTheDocument();
    expect(screen.queryByRole('textbox', { name: 'Device token' })).not.toBeInTheDocument();
  });
});
