import {
  type MantineBreakpoint,
  Table,
  type TableProps,
  type TableScrollContainerProps,
  type TableTdProps,
  type TableTrProps,
} from '@mantine/core';
import type { ReactNode } from 'react';

export interface PlainColumn<T> {
  /** The header, already translated (`null`: an empty header cell). */
  label: ReactNode;
  cell: (row: T) => ReactNode;
  /** Aligns header and cells. */
  ta?: 'end';
  /** Hides header and cells below this breakpoint. */
  visibleFrom?: MantineBreakpoint;
  /** More props of each cell (a style, a weight). */
  td?: TableTdProps;
}

export interface PlainTableProps<T> extends Omit<TableProps, 'children'> {
  /** Accessible name of the table, already translated. */
  'aria-label': string;
  columns: PlainColumn<T>[];
  rows: readonly T[];
  rowKey: (row: T) => string | number;
  /** More props of a row (data attributes, a weight). */
  rowProps?: (row: T) => TableTrProps & Record<`data-${string}`, unknown>;
  /** The scroll container's least width. */
  minWidth: number;
  scroll?: Omit<TableScrollContainerProps, 'minWidth' | 'children'>;
}

/** A small table of every row at once (no paging, no virtual rows): one header, one cell a column. */
export function PlainTable<T>({
  columns,
  rows,
  rowKey,
  rowProps,
  minWidth,
  scroll,
  ...table
}: PlainTableProps<T>) {
  return (
    <Table.ScrollContainer minWidth={minWidth} {...scroll}>
      <Table {...table}>
        <Table.Thead>
          <Table.Tr>
            {columns.map((c, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: the columns are fixed; a header may be empty
              <Table.Th key={i} ta={c.ta} visibleFrom={c.visibleFrom}>
                {c.label}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((row) => (
            <Table.Tr key={rowKey(row)} {...rowProps?.(row)}>
              {columns.map((c, i) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: the columns are fixed
                <Table.Td key={i} ta={c.ta} visibleFrom={c.visibleFrom} {...c.td}>
                  {c.cell(row)}
                </Table.Td>
              ))}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
