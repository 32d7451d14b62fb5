import { ADMIN_TEXTS } from '@forecourt/contract/admin';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { makeUser } from '../../../../testing/factories.ts';
import { json, mockFetch } from '../../../../testing/fetch-mock.ts';
import { renderWithProviders } from '../../../../testing/render.tsx';
import { SiteFormModal } from './sites-page.tsx';

const agent = makeUser();
const companies = [
  { id: 11, name: 'Northern Fuels' },
  { id: 12, name: 'Southern Gas' },
];

describe('site form', () => {
  it('the site form shows the contract messages, then the 409 and 400 answers next to the fields they name', async () => {
    const api = mockFetch({
      'GET /api/admin/companies/': json(companies),
      'POST /api/admin/sites/': ({ body }) => {
        const b = body as { number: string };
        return b.number === '0101'
          ? json({ data: { errors: ['number 0101 already exists in this company'] } }, 409)
          : json({ data: { errors: [ADMIN_TEXTS.timezone, 'Something else went wrong'] } }, 400);
      },
    });
    const { user } = renderWithProviders(<SiteFormModal opened onClose={() => {}} companyId={11} />, {
      user: agent,
    });
    const form = within(await screen.findByRole('form', { name: 'New site' }));
    await user.click(form.getByRole('button', { name: 'Save' }));
    expect(await form.findByText('title is required')).toBeInTheDocument();
    expect(form.getByText('number is required')).toBeInTheDocument();
    expect(form.getByText(ADMIN_TEXTS.lat)).toBeInTheDocument();
    expect(api.find('POST', '/api/admin/sites/')).toHaveLength(0);

    await user.type(form.getByRole('textbox', { name: 'Title' }), 'Leeds Road');
    await user.type(form.getByRole('textbox', { name: 'Number' }), '0101');
    await user.type(form.getByRole('textbox', { name: 'Latitude' }), '95');
    await user.type(form.getByRole('textbox', { name: 'Longitude' }), '-1.5');
    await user.click(form.getByRole('button', { name: 'Save' }));
    expect(await form.findByText(ADMIN_TEXTS.lat)).toBeInTheDocument();
    await user.clear(form.getByRole('textbox', { name: 'Latitude' }));
    await user.type(form.getByRole('textbox', { name: 'Latitude' }), '53.8');
    await user.click(form.getByRole('button', { name: 'Save' }));

    // 409: under the number field, which the message names.
    const number = form.getByRole('textbox', { name: 'Number' });
    await waitFor(() => expect(number).toHaveAccessibleDescription(/already exists/));
    const [sent] = api.find('POST', '/api/admin/sites/');
    expect(sent.body).toMatchObject({
      company_id: 11,
      title: 'Leeds Road',
      number: '0101',
      lat: 53.8,
      lng: -1.5,
    });
    expect(typeof (sent.body as { timezone: string }).timezone).toBe('string');

    // 400: the time zone message under the time zone, the rest above the buttons.
    await user.clear(number);
    await user.type(number, '0102');
    await user.click(form.getByRole('button', { name: 'Save' }));
    expect(await form.findByText(ADMIN_TEXTS.timezone)).toBeInTheDocument();
    expect(form.getByRole('alert')).toHaveTextContent('Something else went wrong');
    expect(number).not.toHaveAccessibleDescription(/already exists/);
  });
});
