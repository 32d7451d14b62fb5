import { ADMIN_TEXTS } from '@forecourt/contract/admin';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { makeUser } from '../../../../testing/factories.ts';
import { json, mockFetch } from '../../../../testing/fetch-mock.ts';
import { renderWithProviders } from '../../../../testing/render.tsx';
import { UserFormModal } from './users-page.tsx';

const agent = makeUser();
const companies = [
  { id: 11, name: 'Northern Fuels' },
  { id: 12, name: 'Southern Gas' },
];

describe('user form', () => {
  it('the user form asks a site user for sites, as the contract says', async () => {
    mockFetch({
      'GET /api/admin/companies/': json(companies),
      'GET /api/admin/sites/': json([]),
    });
    const { user } = renderWithProviders(<UserFormModal opened onClose={() => {}} />, { user: agent });
    const form = within(await screen.findByRole('form', { name: 'New user' }));
    await user.type(form.getByRole('textbox', { name: 'Username' }), 'sam');
    await user.type(form.getByRole('textbox', { name: 'Email' }), 'sam@example.com');
    await user.click(form.getByRole('button', { name: 'Save' }));
    expect(await form.findByText(ADMIN_TEXTS.siteIdsNeeded)).toBeInTheDocument();
  });
});
