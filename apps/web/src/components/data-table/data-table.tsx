import '@mantine/core/styles/Table.layer.css';
import { rowMatches } from '@forecourt/contract/formatters';
import { type MantineBreakpoint, Table, Text, TextInput, useMantineTheme } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconSearch } from '@tabler/icons-react';
import {
  type ReactNode,
  type RefObject,
  useDeferredValue,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
} from 'react';
import { useTranslation } from 'react-i18next';
import { useHeaderSearch } from '../../lib/search-store.ts';
import { onDemand, useOnDemand } from '../on-demand.tsx';
import './data-table.css';
import type { RowWindow } from './virtual-rows.tsx';

/** TanStack Virtual and the rows it places: fetched once a table longer than its box is pointed at, focused or scrolled. */
const virtualRows = onDemand(() => import('./virtual-rows.tsx'));
/** What on a table's box fetches the virtualiser: a pointer over it, focus in it, a scroll (touch, keys). */
const WANT_EVENTS = ['pointerenter', 'focusin', 'scroll', 'touchstart'] as const;

export interface DataTableColumn<T> {
  /** Stable key of the column. */
  key: string;
  /** Header, already translated. */
  header: ReactNode;
  /** Cell content; defaults to the row's field named `key`. */
  render?: (row: T) => ReactNode;
  /** Only shown from this breakpoint up (e.g. 'sm' hides it on phones). */
  visibleFrom?: MantineBreakpoint;
  /** Column width (CSS), e.g. '30%'. */
  width?: string;
  /** Keep the cell on one line (dates, numbers). @default false */
  nowrap?: boolean;
}

export interface DataTableProps<T> {
  rows: readonly T[];
  columns: DataTableColumn<T>[];
  /** Unique key of a row. */
  rowKey: (row: T, index: number) => string | number;
  /** Accessible name of the table, already translated. */
  label: string;
  /**
   * Height of the scrolling body in px where layout gives none (no sized parent, tests). Inside a
   * sized box (a widget body) the table fills it. Rows outside the visible window are not in the DOM.
   * @default 260
   */
  height?: number;
  /** Estimated row height in px (the virtualiser measures real rows). @default 37 */
  rowHeight?: number;
  /** Show the table's own search box. @default true */
  searchable?: boolean;
  /** Also filter by the page header's search text. @default true */
  followHeaderSearch?: boolean;
  /** Shown when the search leaves no row, already translated. @default t('NO_MATCHES') */
  noMatchMessage?: ReactNode;
  /** Rows kept rendered above and below the visible window. @default 8 */
  overscan?: number;
}

/** Width a column without its own keeps at least, so a narrow card scrolls sideways instead of crushing it. */
const AUTO_COLUMN_MIN = '5.5rem';

/**
 * The least width of the table: each visible column's own width (or AUTO_COLUMN_MIN), summed, and how many
 * columns show. Columns shown only from a breakpoint count only when the window is that wide: a hidden
 * column must not be spanned by the padding rows either, or it would still take its share of the width.
 */
function useTableWidth(columns: readonly DataTableColumn<unknown>[]): { minWidth: string; shown: number } {
  const theme = useMantineTheme();
  const from: Record<MantineBreakpoint, boolean | undefined> = {
    xs: useMediaQuery(`(min-width: ${theme.breakpoints.xs})`),
    sm: useMediaQuery(`(min-width: ${theme.breakpoints.sm})`),
    md: useMediaQuery(`(min-width: ${theme.breakpoints.md})`),
    lg: useMediaQuery(`(min-width: ${theme.breakpoints.lg})`),
    xl: useMediaQuery(`(min-width: ${theme.breakpoints.xl})`),
  };
  const parts = columns
    .filter((c) => !c.visibleFrom || from[c.visibleFrom] !== false)
    .map((c) => (c.width && !c.width.endsWith('%') ? c.width : AUTO_COLUMN_MIN));
  return { minWidth: parts.length ? `calc(${parts.join(' + ')})` : '0', shown: Math.max(parts.length, 1) };
}

/** The rows of `rows` matching every non-empty search text (case-insensitive substring over every field). */
export function filterRows<T>(rows: readonly T[], ...searches: string[]): readonly T[] {
  const active = searches.filter((s) => s.trim() !== '');
  if (!active.length) return rows;
  return rows.filter((row) => active.every((s) => rowMatches(row, s)));
}

/**
 * Every field value of a row (nested ones too), lower-cased and joined by a character nobody types: built
 * once per row, so a keystroke over 10,000 rows is one `rowMatches` on a string per row.
 */
export function searchText(row: unknown): string {
  const out: string[] = [];
  const visit = (v: unknown) => {
    if (v === null || v === undefined) return;
    if (typeof v === 'object') {
      for (const x of Object.values(v as Record<string, unknown>)) visit(x);
      return;
    }
    out.push(String(v).toLowerCase());
  };
  visit(row);
  return out.join('\u0000');
}

/**
 * A searchable table for widgets: its own search box plus the header search, both matched
 * case-insensitively against every field of a row (the contract's `rowMatches`). Rows are
 * virtualised: only the visible window (plus a few) is in the DOM, so 10,000 rows stay smooth. The
 * virtualiser itself comes on demand (`virtual-rows.tsx`): until the box is first pointed at, focused or
 * scrolled, the rows it would place first are rendered without it.
 */
export function DataTable<T>(props: DataTableProps<T>) {
  const {
    rows,
    columns,
    rowKey,
    label,
    height = 260,
    rowHeight = 37,
    searchable = true,
    followHeaderSearch = true,
    overscan = 8,
  } = props;
  const { t } = useTranslation();
  const { minWidth, shown } = useTableWidth(columns as DataTableColumn<unknown>[]);
  const [search, setSearch] = useState('');
  const headerSearch = useHeaderSearch();
  // Typing stays responsive: the filter over many rows runs at a lower priority than the keystroke.
  const deferredSearch = useDeferredValue(search);
  const deferredHeader = useDeferredValue(followHeaderSearch ? headerSearch : '');
  const index = useMemo(() => rows.map(searchText), [rows]);
  const filtered = useMemo(() => {
    const active = [deferredSearch, deferredHeader].filter((q) => q.trim() !== '');
    if (!active.length) return rows;
    return rows.filter((_, i) => active.every((q) => rowMatches(index[i], q)));
  }, [rows, index, deferredSearch, deferredHeader]);

  const scrollRef = useRef<HTMLDivElement>(null);
  // The first window: the rows that fill the box by the estimate, plus the overscan, as the virtualiser would
  // place them before any scrolling. A table no longer than that never needs the virtualiser; a longer one
  // fetches it when a pointer, focus or scroll first reaches the box, and the virtualiser takes over from there.
  const boxHeight = useBoxHeight(scrollRef, height);
  const first = Math.min(filtered.length, Math.ceil(boxHeight / rowHeight) + overscan);
  const long = filtered.length > first;
  const [wanted, setWanted] = useState(false);
  const loaded = useOnDemand(virtualRows, long && wanted);
  const [virtual, setVirtual] = useState<RowWindow | null>(null);
  useEffect(() => {
    const box = scrollRef.current;
    if (!box || !long || wanted) return;
    const want = () => setWanted(true);
    for (const type of WANT_EVENTS) box.addEventListener(type, want, { passive: true });
    return () => {
      for (const type of WANT_EVENTS) box.removeEventListener(type, want);
    };
  }, [long, wanted]);
  const firstWindow: RowWindow = {
    indexes: Array.from({ length: first }, (_, i) => i),
    padTop: 0,
    padBottom: (filtered.length - first) * rowHeight,
  };
  const body = ({ indexes, padTop, padBottom, measure }: RowWindow) => (
    <>
      {padTop > 0 && (
        <tr aria-hidden className="fc-data-table-pad">
          <td colSpan={shown} style={{ height: padTop }} />
        </tr>
      )}
      {indexes.map((index) => {
        // A window a step behind a shorter list (the virtualiser places the new one before paint).
        if (index >= filtered.length) return null;
        const row = filtered[index];
        return (
          <Table.Tr key={rowKey(row, index)} data-index={index} aria-rowindex={index + 2} ref={measure}>
            {columns.map((c) => (
              <Table.Td
                key={c.key}
                visibleFrom={c.visibleFrom}
                style={c.nowrap ? { whiteSpace: 'nowrap' } : undefined}
              >
                {c.render ? c.render(row) : cellText((row as Record<string, unknown>)?.[c.key])}
              </Table.Td>
            ))}
          </Table.Tr>
        );
      })}
      {padBottom > 0 && (
        <tr aria-hidden className="fc-data-table-pad">
          <td colSpan={shown} style={{ height: padBottom }} />
        </tr>
      )}
    </>
  );

  return (
    <div className="fc-data-table">
      {searchable && (
        <TextInput
          size="xs"
          mb="xs"
          aria-label={t('SEARCH_TABLE', { name: label })}
          placeholder={t('SEARCH')}
          leftSection={<IconSearch size={14} aria-hidden />}
          value={search}
          onChange={(e) => setSearch(e.currentTarget.value)}
        />
      )}
      {/* Focusable, so a keyboard can scroll a table taller or wider than its box. */}
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scroll container must take focus (WCAG 2.1.1) */}
      <div ref={scrollRef} className="fc-data-table-scroll" tabIndex={0}>
        <Table
          // Fixed layout: columns keep their widths while different rows scroll into the window.
          layout="fixed"
          stickyHeader
          highlightOnHover
          verticalSpacing={6}
          horizontalSpacing={8}
          fz="sm"
          aria-label={label}
          aria-rowcount={filtered.length + 1}
          style={{ minWidth }}
        >
          <Table.Thead>
            <Table.Tr>
              {columns.map((c) => (
                <Table.Th key={c.key} visibleFrom={c.visibleFrom} w={c.width}>
                  {c.header}
                </Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>{body(long && loaded && virtual ? virtual : firstWindow)}</Table.Tbody>
        </Table>
        {long && loaded && (
          <loaded.VirtualWindow
            count={filtered.length}
            {...{ scrollRef, height, rowHeight, overscan }}
            onWindow={setVirtual}
          />
        )}
        {filtered.length === 0 && (
          <Text size="sm" c="dimmed" ta="center" py="md">
            {props.noMatchMessage ?? t('NO_MATCHES')}
          </Text>
        )}
      </div>
    </div>
  );
}

/** The scroll box's height as laid out (followed through resizes), or `fallback` where there is no layout. */
function useBoxHeight(ref: RefObject<HTMLDivElement | null>, fallback: number): number {
  const [measured, setMeasured] = useState(0);
  useLayoutEffect(() => {
    const box = ref.current;
    if (!box) return;
    setMeasured(box.clientHeight);
    const observer = new ResizeObserver(() => setMeasured(box.clientHeight));
    observer.observe(box);
    return () => observer.disconnect();
  }, [ref]);
  return measured > 0 ? measured : fallback;
}

function cellText(value: unknown): ReactNode {
  if (value === null || value === undefined || value === '') return '-';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}
