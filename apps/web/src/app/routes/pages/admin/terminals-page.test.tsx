import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { makeUser } from '../../../../testing/factories.ts';
import { json, mockFetch } from '../../../../testing/fetch-mock.ts';
import { renderWithProviders } from '../../../../testing/render.tsx';
import { TokenDialog } from './components/token-dialog.tsx';
import TerminalsPage, { TerminalFormModal } from './terminals-page.tsx';

const agent = makeUser();
const terminal = {
  id: 5,
  site_id: 101,
  terminal_id: 'T-0005',
  card_acceptor_name: 'Leeds Road',
  lat: null,
  lng: null,
  tags: ['canary', 'model-ux300'],
  software_version: '4.3.0',
  created_at: '2026-11-13T10:00:00.000Z',
};
const plain = {
  ...terminal,
  id: 6,
  terminal_id: 'T-0006',
  tags: [] as string[],
  software_version: null,
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

describe('terminals page: tags', () => {
  it('shows each terminal’s tags and version, and filters by tag through the URL (all must match)', async () => {
    const api = mockFetch({
      'GET /api/admin/terminals/': ({ url }) => {
        const wanted = url.searchParams.getAll('tag');
        return json([terminal, plain].filter((x) => wanted.every((tag) => x.tags.includes(tag))));
      },
      'GET /api/admin/sites/': json([]),
    });
    const { user, location } = renderWithProviders(<TerminalsPage />, {
      user: agent,
      route: '/admin/terminals',
    });
    const table = await screen.findByRole('table', { name: 'Terminals' });
    const tags = within(table).getByRole('list', { name: 'Tags: canary, model-ux300' });
    expect(
      within(tags)
        .getAllByRole('listitem')
        .map((x) => x.textContent),
    ).toEqual(['canary', 'model-ux300']);
    expect(within(table).getByLabelText('No tags')).toBeInTheDocument();
    expect(within(table).getByText('4.3.0')).toBeInTheDocument();

    const filter = screen.getByRole('combobox', { name: 'Tag filter' });
    await user.type(filter, 'Canary{Enter}');
    await waitFor(() => expect(location.current.search).toBe('?tag=canary'));
    // The list is asked again: a new table once it answers.
    const listed = async () => within(await screen.findByRole('table', { name: 'Terminals' }));
    expect(await (await listed()).findByText('T-0005')).toBeInTheDocument();
    await waitFor(async () => expect((await listed()).queryByText('T-0006')).not.toBeInTheDocument());
    expect(api.calls.at(-1)?.url.searchParams.getAll('tag')).toEqual(['canary']);
    await user.type(filter, 'model-ux300{Enter}');
    await waitFor(() => expect(location.current.search).toBe('?tag=canary%2Cmodel-ux300'));
    await waitFor(() =>
      expect(api.calls.at(-1)?.url.searchParams.getAll('tag')).toEqual(['canary', 'model-ux300']),
    );
    expect(await (await listed()).findByText('T-0005')).toBeInTheDocument();

    // A label that cannot be a tag is not added; the field says why.
    await user.type(filter, 'no/way{Enter}');
    expect(
      await screen.findByText('“no/way” is not a tag: 1–32 characters of a-z 0-9 - _ .'),
    ).toBeInTheDocument();
    expect(location.current.search).toBe('?tag=canary%2Cmodel-ux300');
  });

  it('edits a terminal’s tags in its form: lowercased, each once, sent with PATCH', async () => {
    const api = mockFetch({
      'GET /api/admin/sites/': json([]),
      'PATCH /api/admin/terminals/5/': ({ body }) => json({ ...terminal, ...(body as object) }),
    });
    const { user } = renderWithProviders(
      <TerminalFormModal opened onClose={() => {}} terminal={terminal} />,
      {
        user: agent,
      },
    );
    const form = within(await screen.findByRole('form', { name: 'Edit terminal T-0005' }));
    const input = form.getByRole('combobox', { name: 'Tags' });
    await user.type(input, 'Lane-2,canary{Enter}');
    await user.type(input, 'bad!tag{Enter}');
    expect(
      await form.findByText('“bad!tag” is not a tag: 1–32 characters of a-z 0-9 - _ .'),
    ).toBeInTheDocument();
    await user.click(form.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(api.find('PATCH', '/api/admin/terminals/5/')).toHaveLength(1));
    expect(api.find('PATCH', '/api/admin/terminals/5/')[0].body).toMatchObject({
      tags: ['canary', 'model-ux300', 'lane-2'],
    });
  });

  it('shows the server’s 400 naming tags under the field', async () => {
    mockFetch({
      'GET /api/admin/sites/': json([]),
      'PATCH /api/admin/terminals/5/': json({ data: { errors: ['tags may hold at most 20 tags'] } }, 400),
    });
    const { user } = renderWithProviders(
      <TerminalFormModal opened onClose={() => {}} terminal={terminal} />,
      {
        user: agent,
      },
    );
    const form = within(await screen.findByRole('form', { name: 'Edit terminal T-0005' }));
    await user.type(form.getByRole('combobox', { name: 'Tags' }), 'x{Enter}');
    await user.click(form.getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(form.getByRole('combobox', { name: 'Tags' })).toHaveAccessibleDescription(
        /tags may hold at most 20 tags/,
      ),
    );
  });
});
