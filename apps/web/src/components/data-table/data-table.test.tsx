import { act, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { emitHeaderSearch } from '../../lib/search-store.ts';
import { renderWithProviders } from '../../testing/render.tsx';
import { DataTable, type DataTableColumn, filterRows, searchText } from './data-table.tsx';

interface Row {
  id: number;
  name: string;
  site: string | null;
  extra?: { note: string };
}

const columns: DataTableColumn<Row>[] = [
  { key: 'name', header: 'Name' },
  { key: 'site', header: 'Site' },
];

const dataRows = () => screen.getAllByRole('row').filter((r) => within(r).queryAllByRole('cell').length > 0);

describe('filterRows', () => {
  const rows: Row[] = [
    { id: 1, name: 'Pump ERROR', site: 'Leeds', extra: { note: 'Hidden Field' } },
    { id: 2, name: 'Door open', site: null },
    { id: 3, name: 'Paper low', site: 'York' },
  ];
  it('matches a case-insensitive substring in any field, nested ones too', () => {
    expect(filterRows(rows, 'error').map((r) => r.id)).toEqual([1]);
    expect(filterRows(rows, 'YORK').map((r) => r.id)).toEqual([3]);
    expect(filterRows(rows, 'hidden f').map((r) => r.id)).toEqual([1]);
    expect(filterRows(rows, '2').map((r) => r.id)).toEqual([2]);
  });
  it('an empty or blank search shows everything; two searches must both match', () => {
    expect(filterRows(rows, '')).toHaveLength(3);
    expect(filterRows(rows, '   ', '')).toHaveLength(3);
    expect(filterRows(rows, 'p', 'york').map((r) => r.id)).toEqual([3]);
  });
});

describe('DataTable', () => {
  it('filters by its own search box and by the header search; empty shows all', async () => {
    const rows: Row[] = [
      { id: 1, name: 'Pump ERROR', site: 'Leeds' },
      { id: 2, name: 'Door open', site: null },
      { id: 3, name: 'Paper low', site: 'York' },
    ];
    const { user } = renderWithProviders(
      <DataTable rows={rows} columns={columns} rowKey={(r) => r.id} label="Events" />,
    );
    expect(dataRows()).toHaveLength(3);
    // A missing value shows as '-'.
    expect(within(dataRows()[1]).getByText('-')).toBeInTheDocument();
    const box = screen.getByRole('textbox', { name: 'Search Events' });
    await user.type(box, 'LEEDS');
    expect(dataRows()).toHaveLength(1);
    expect(screen.getByText('Pump ERROR')).toBeInTheDocument();
    await user.clear(box);
    expect(dataRows()).toHaveLength(3);
    await user.type(box, 'nothing like this');
    expect(screen.getByText('No matching rows')).toBeInTheDocument();
    await user.clear(box);
    act(() => emitHeaderSearch('door'));
    expect(dataRows()).toHaveLength(1);
    expect(screen.getByText('Door open')).toBeInTheDocument();
    act(() => emitHeaderSearch(''));
    expect(dataRows()).toHaveLength(3);
  });

  it('renders only a window of 10,000 rows, and search still reaches every row', async () => {
    const rows: Row[] = Array.from({ length: 10_000 }, (_, i) => ({
      id: i,
      name: `Event ${i}`,
      site: i === 9_876 ? 'Needle Street' : `Site ${i % 50}`,
    }));
    const { user } = renderWithProviders(
      <DataTable rows={rows} columns={columns} rowKey={(r) => r.id} label="Events" height={300} />,
    );
    const shown = dataRows().length;
    expect(shown).toBeGreaterThan(0);
    expect(shown).toBeLessThan(60);
    expect(screen.getByRole('table', { name: 'Events' })).toHaveAttribute('aria-rowcount', '10001');
    expect(screen.queryByText('Event 9876')).not.toBeInTheDocument();
    await user.type(screen.getByRole('textbox', { name: 'Search Events' }), 'needle');
    expect(dataRows()).toHaveLength(1);
    expect(screen.getByText('Event 9876')).toBeInTheDocument();
  });
});

describe('DataTable rows on demand', () => {
  const rows: Row[] = Array.from({ length: 500 }, (_, i) => ({ id: i, name: `Event ${i}`, site: null }));
  const shownNames = () => dataRows().map((r) => within(r).getAllByRole('cell')[0].textContent);

  it('a short table shows every row without the virtualiser, even when pointed at', async () => {
    const few = rows.slice(0, 12);
    const { user } = renderWithProviders(
      <DataTable rows={few} columns={columns} rowKey={(r) => r.id} label="Events" height={300} />,
    );
    expect(shownNames()).toEqual(few.map((r) => r.name));
    await user.hover(screen.getByRole('table', { name: 'Events' }));
    expect(shownNames()).toEqual(few.map((r) => r.name));
  });

  it('the rows on screen stay mounted when the virtualiser takes over: focus and open forms are kept', async () => {
    const withButton: DataTableColumn<Row>[] = [
      ...columns,
      { key: 'act', header: 'Act', render: (r) => <button type="button">{`Act ${r.id}`}</button> },
    ];
    const { user } = renderWithProviders(
      <DataTable rows={rows} columns={withButton} rowKey={(r) => r.id} label="Events" height={300} />,
    );
    const button = screen.getByRole('button', { name: 'Act 3' });
    // Focus coming into the box fetches the virtualiser.
    await user.click(button);
    await act(async () => {
      await import('./virtual-rows.tsx');
    });
    await act(async () => {});
    expect(screen.getByRole('button', { name: 'Act 3' })).toBe(button);
    expect(button).toHaveFocus();
    // Narrowing the list keeps the table whole while the virtualiser follows.
    await user.type(screen.getByRole('textbox', { name: 'Search Events' }), 'Event 4');
    expect(shownNames()[0]).toBe('Event 4');
  });

  it('a long one shows the first window, then scrolls with the virtualiser once pointed at', async () => {
    const { user } = renderWithProviders(
      <DataTable rows={rows} columns={columns} rowKey={(r) => r.id} label="Events" height={300} />,
    );
    // 300 px by the 37 px estimate (9 rows) and the overscan of 8, as the virtualiser would place them.
    expect(shownNames()).toEqual(rows.slice(0, 17).map((r) => r.name));
    const box = screen.getByRole('table', { name: 'Events' }).parentElement as HTMLElement;
    await user.hover(box);
    // The hover started the download; the table takes the module as soon as it is there.
    await act(async () => {
      await import('./virtual-rows.tsx');
    });
    box.scrollTop = 37 * 200;
    act(() => {
      box.dispatchEvent(new Event('scroll'));
    });
    await screen.findByText('Event 200');
    expect(screen.queryByText('Event 0')).not.toBeInTheDocument();
    expect(dataRows().length).toBeLessThan(40);
  });
});

describe('searchText', () => {
  it('holds every value, nested ones too, lower-cased, without joining neighbours into a match', () => {
    const text = searchText({ a: 'Pump', b: { c: 'LEEDS', d: null }, e: 12 });
    expect(text.split('\u0000')).toEqual(['pump', 'leeds', '12']);
    expect(text.includes('pumpleeds')).toBe(false);
  });
});
