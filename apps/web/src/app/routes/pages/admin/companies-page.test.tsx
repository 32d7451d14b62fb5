import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { makeUser } from '../../../../testing/factories.ts';
import { json, mockFetch } from '../../../../testing/fetch-mock.ts';
import { renderWithProviders } from '../../../../testing/render.tsx';
import CompaniesPage, { CompanyFormModal } from './companies-page.tsx';

const agent = makeUser();
const companies = [
  { id: 11, name: 'Northern Fuels' },
  { id: 12, name: 'Southern Gas' },
];

describe('companies page', () => {
  it('the companies page lists, searches with ?q= and shows a duplicate name next to the field', async () => {
    const api = mockFetch({
      'GET /api/admin/companies/': ({ url }) =>
        json(
          companies.filter((c) =>
            c.name.toLowerCase().includes((url.searchParams.get('q') ?? '').toLowerCase()),
          ),
        ),
      'POST /api/admin/companies/': json(
        { data: { errors: ['name: a company named Southern Gas already exists'] } },
        409,
      ),
    });
    const { user, location } = renderWithProviders(<CompaniesPage />, {
      user: agent,
      route: '/admin/companies',
    });
    const table = await screen.findByRole('table', { name: 'Companies' });
    expect(within(table).getByText('Northern Fuels')).toBeInTheDocument();
    await user.type(screen.getByRole('textbox', { name: 'Search Companies' }), 'south');
    await waitFor(() => expect(location.current.search).toBe('?q=south'));
    await waitFor(() => expect(within(table).queryByText('Northern Fuels')).not.toBeInTheDocument());
    expect(api.calls.at(-1)?.url.searchParams.get('q')).toBe('south');

    await user.click(screen.getByRole('button', { name: 'New company' }));
    const form = within(await screen.findByRole('form', { name: 'New company' }));
    await user.type(form.getByRole('textbox', { name: 'Name' }), 'Southern Gas');
    await user.click(form.getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(form.getByRole('textbox', { name: 'Name' })).toHaveAccessibleDescription(
        'name: a company named Southern Gas already exists',
      ),
    );
  });

  it('a new company is created, the form closes and the list is asked again', async () => {
    let rows = [...companies];
    const api = mockFetch({
      'GET /api/admin/companies/': () => json(rows),
      'POST /api/admin/companies/': ({ body }) => {
        const created = { id: 13, name: (body as { name: string }).name };
        rows = [created, ...rows];
        return json(created, 201);
      },
    });
    const { user } = renderWithProviders(<CompaniesPage />, { user: agent });
    await screen.findByRole('table', { name: 'Companies' });
    await user.click(screen.getByRole('button', { name: 'New company' }));
    const dialog = within(await screen.findByRole('form', { name: 'New company' }));
    await user.type(dialog.getByRole('textbox', { name: 'Name' }), 'Eastern Oil');
    await user.click(dialog.getByRole('button', { name: 'Save' }));
    expect(
      await within(screen.getByRole('table', { name: 'Companies' })).findByText('Eastern Oil'),
    ).toBeInTheDocument();
    expect(screen.queryByRole('form', { name: 'New company' })).not.toBeInTheDocument();
    expect(api.find('POST', '/api/admin/companies/')[0].body).toEqual({ name: 'Eastern Oil' });
  });

  it('the company form names the company being edited and sends the new name with PATCH', async () => {
    const api = mockFetch({ 'PATCH /api/admin/companies/11/': json({ id: 11, name: 'North Fuels' }) });
    const { user } = renderWithProviders(
      <CompanyFormModal opened onClose={() => {}} company={companies[0]} />,
      { user: agent },
    );
    const form = within(await screen.findByRole('form', { name: 'Edit company Northern Fuels' }));
    await user.clear(form.getByRole('textbox', { name: 'Name' }));
    await user.type(form.getByRole('textbox', { name: 'Name' }), 'North Fuels');
    await user.click(form.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(api.find('PATCH', '/api/admin/companies/11/')).toHaveLength(1));
    expect(api.find('PATCH', '/api/admin/companies/11/')[0].body).toEqual({ name: 'North Fuels' });
  });
});
