import type { ApiKey } from '@forecourt/contract/api-keys';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { makeUser } from '../../../../testing/factories.ts';
import { json, mockFetch } from '../../../../testing/fetch-mock.ts';
import { renderWithProviders } from '../../../../testing/render.tsx';
import { ApiKeysSection } from './api-keys-section.tsx';

const TOKEN = `fck_${'x'.repeat(43)}`;

describe('profile: API keys', () => {
  it('creates a read-only key, shows its token once, lists it, and deletes it after asking', async () => {
    let keys: ApiKey[] = [];
    const api = mockFetch({
      'GET /api/api-keys/': () => json(keys),
      'POST /api/api-keys/': (req) => {
        const body = req.body as { name: string; read_only: boolean; expires_at: string | null };
        const key: ApiKey = {
          id: 7,
          name: body.name,
          prefix: TOKEN.slice(0, 12),
          read_only: body.read_only,
          created_at: '2026-11-27T10:00:00.000Z',
          last_used_at: null,
          expires_at: body.expires_at,
        };
        keys = [key];
        return json({ ...key, token: TOKEN }, 201);
      },
      'DELETE /api/api-keys/7/': () => {
        const [gone] = keys;
        keys = [];
        return json(gone);
      },
    });
    const { user } = renderWithProviders(<ApiKeysSection />, { user: makeUser() });
    expect(await screen.findByText('You have no API keys yet.')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'New API key' }));
    const form = screen.getByRole('form', { name: 'New API key' });
    await user.click(within(form).getByRole('button', { name: 'Create key' }));
    expect(await within(form).findByText('Give the key a name of 1 to 100 characters.')).toBeInTheDocument();
    expect(api.find('POST', '/api/api-keys/')).toHaveLength(0);
    await user.type(within(form).getByRole('textbox', { name: /^Name/ }), 'Stock system');
    expect(within(form).getByRole('checkbox', { name: /Read-only/ })).toBeChecked();
    await user.selectOptions(within(form).getByRole('combobox', { name: 'Expires' }), 'In 30 days');
    await user.click(within(form).getByRole('button', { name: 'Create key' }));

    expect(await screen.findByText('This key is shown only once')).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Your new API key' })).toHaveValue(TOKEN);
    expect(screen.getByRole('button', { name: 'Copy key' })).toBeInTheDocument();
    const sent = api.find('POST', '/api/api-keys/')[0]!.body as Record<string, unknown>;
    expect(sent).toMatchObject({ name: 'Stock system', read_only: true });
    const days = (Date.parse(sent.expires_at as string) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(29.9);
    expect(days).toBeLessThan(30.1);
    await user.click(screen.getByRole('button', { name: 'Done' }));
    expect(screen.queryByText(TOKEN)).not.toBeInTheDocument();
    expect(screen.queryByDisplayValue(TOKEN)).not.toBeInTheDocument();

    const table = await screen.findByRole('table', { name: 'API keys' });
    const row = within(table).getByRole('row', { name: /Stock system/ });
    expect(within(row).getByText(`${TOKEN.slice(0, 12)}…`)).toBeInTheDocument();
    expect(within(row).getByText('Read-only')).toBeInTheDocument();
    expect(within(row).getAllByText('Never')).toHaveLength(1);

    await user.click(within(row).getByRole('button', { name: 'Delete API key Stock system' }));
    expect(screen.getByText(/loses access at once/)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Delete key' }));
    await waitFor(() => expect(api.find('DELETE', '/api/api-keys/7/')).toHaveLength(1));
    expect(await screen.findByText('You have no API keys yet.')).toBeInTheDocument();
  });
});
