import type { ImportResult } from '@forecourt/contract/admin';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { makeUser } from '../../../../testing/factories.ts';
import { json, mockFetch } from '../../../../testing/fetch-mock.ts';
import { renderWithProviders } from '../../../../testing/render.tsx';
import ImportPage from './import-page.tsx';

const agent = makeUser();

const HEADER = 'company,site_number,site_title,lat,lng,timezone,terminal_id,pumps';

function answer(csv: string): ImportResult {
  const lines = csv.trim().split('\n').slice(1);
  const rows = lines.map((line, i) => {
    const bad = line.split(',')[5] === 'Mars/Base';
    return {
      row: i + 2,
      action: bad ? ('error' as const) : ('create' as const),
      errors: bad ? ['timezone must be an IANA time zone name, e.g. Europe/London'] : [],
    };
  });
  const errors = rows.filter((r) => r.action === 'error').length;
  return { rows, created: errors ? 0 : rows.length, updated: 0, unchanged: 0, errors };
}

describe('import page', () => {
  it('previews a CSV row by row, shows the bad row, and imports only once it is fixed', async () => {
    const api = mockFetch({
      'POST /api/admin/import/': ({ url, body }) => {
        const result = answer(String(body));
        if (url.searchParams.get('dry_run') === 'false' && result.errors) return json(result, 400);
        return json(result);
      },
    });
    const { user } = renderWithProviders(<ImportPage />, { user: agent });
    const csv = [
      HEADER,
      'Acme,1,One,51.5,-0.1,Europe/London,T1,4',
      'Acme,2,Two,51.6,-0.2,Mars/Base,T2,2',
    ].join('\n');
    const text = await screen.findByRole('textbox', { name: 'CSV text' });
    await user.click(text);
    await user.paste(csv);
    expect(screen.getByRole('button', { name: 'Import' })).toBeDisabled();
    await user.click(screen.getByRole('button', { name: 'Preview' }));

    const table = await screen.findByRole('table', { name: 'Import preview' });
    expect(screen.getByTestId('import-summary')).toHaveTextContent(
      '0 to create, 0 to update, 0 unchanged, 1 with errors',
    );
    // Only the bad row at first; all rows on demand.
    expect(within(table).getByText('3')).toBeInTheDocument();
    expect(within(table).getByText(/timezone must be an IANA time zone name/)).toBeInTheDocument();
    expect(within(table).queryByText('2')).not.toBeInTheDocument();
    await user.click(screen.getByRole('checkbox', { name: 'Only rows with errors' }));
    expect(within(table).getByText('2')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Import' })).toBeDisabled();
    const [dry] = api.find('POST', '/api/admin/import/');
    expect(dry.url.searchParams.get('dry_run')).toBe('true');
    expect(dry.headers.get('content-type')).toBe('text/csv');
    expect(dry.body).toBe(csv);

    // Fixed: the preview is stale until asked again, then the import goes through.
    await user.clear(text);
    await user.click(text);
    await user.paste(csv.replace('Mars/Base', 'Europe/Paris'));
    expect(screen.getByText('The CSV changed since the preview: preview it again.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Import' })).toBeDisabled();
    await user.click(screen.getByRole('button', { name: 'Preview' }));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Import' })).toBeEnabled());
    expect(screen.getByTestId('import-summary')).toHaveTextContent('2 to create');
    await user.click(screen.getByRole('button', { name: 'Import' }));
    expect(await screen.findByTestId('import-done')).toHaveTextContent(
      'Imported: 2 created, 0 updated, 0 unchanged.',
    );
    const sent = api.find('POST', '/api/admin/import/');
    expect(sent.map((c) => c.url.searchParams.get('dry_run'))).toEqual(['true', 'true', 'false']);
  });

  it('a file is read into the text box', async () => {
    mockFetch({});
    const { user } = renderWithProviders(<ImportPage />, { user: agent });
    const file = new File([`${HEADER}\nAcme,1,One,51.5,-0.1,Europe/London,T1,4\n`], 'fleet.csv', {
      type: 'text/csv',
    });
    const input = document.querySelector('input[type="file"]') as HTMLInputElement;
    await user.upload(input, file);
    await waitFor(() =>
      expect(screen.getByRole('textbox', { name: 'CSV text' })).toHaveValue(
        `${HEADER}\nAcme,1,One,51.5,-0.1,Europe/London,T1,4\n`,
      ),
    );
  });
});
