import { Button, Checkbox, Collapse, Group, MultiSelect, Select, SimpleGrid, TextInput } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconAdjustmentsHorizontal, IconSearch, IconX } from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { LogFilter } from './log-kinds.tsx';
import { hasFilters, type LogView, PAGE_SIZES } from './log-view.ts';

/** Typing settles for this long before the URL (and the query) follows. */
export const TYPING_DELAY_MS = 350;

/** A text field that keeps its own text while typing and commits it after a pause (or on Enter). */
function DebouncedInput({
  value,
  onCommit,
  numeric,
  ...props
}: {
  value: string;
  onCommit: (value: string) => void;
  numeric?: boolean;
  label: string;
  placeholder?: string;
  leftSection?: React.ReactNode;
  'aria-label'?: string;
}) {
  const [text, setText] = useState(value);
  const committed = useRef(value);
  // The URL changed from elsewhere (back button, clear): show it.
  useEffect(() => {
    committed.current = value;
    setText(value);
  }, [value]);
  useEffect(() => {
    if (text === committed.current) return;
    const timer = setTimeout(() => {
      committed.current = text;
      onCommit(text);
    }, TYPING_DELAY_MS);
    return () => clearTimeout(timer);
  }, [text, onCommit]);
  return (
    <TextInput
      {...props}
      value={text}
      inputMode={numeric ? 'numeric' : undefined}
      onChange={(e) =>
        setText(numeric ? e.currentTarget.value.replace(/[^\d.]/g, '') : e.currentTarget.value)
      }
      onKeyDown={(e) => {
        if (e.key === 'Enter' && text !== committed.current) {
          committed.current = text;
          onCommit(text);
        }
      }}
    />
  );
}

export interface LogFiltersProps {
  view: LogView;
  filters: LogFilter[];
  /** Zone the dates are days of (shown beside the date fields). */
  zone: string | undefined;
  onChange: (next: LogView) => void;
}

/** Search, the log's own filters, a date range and the page size, all mirrored in the URL. */
export function LogFilters({ view, filters, zone, onChange }: LogFiltersProps) {
  const { t } = useTranslation();
  // Latest view for the debounced commits, which may land after other changes.
  const latest = useRef(view);
  latest.current = view;
  const emit = useRef(onChange);
  emit.current = onChange;
  const set = (patch: Partial<LogView>) => emit.current({ ...latest.current, ...patch });
  const setFilter = (name: string, value: string | string[] | null) => {
    const next = { ...latest.current.filters };
    if (value === null || value === '' || (Array.isArray(value) && value.length === 0)) delete next[name];
    else next[name] = value;
    emit.current({ ...latest.current, filters: next });
  };
  const commitSearch = useRef((q: string) => set({ q })).current;
  const commitFilter = useRef(new Map<string, (v: string) => void>()).current;
  const committer = (name: string) => {
    let fn = commitFilter.get(name);
    if (!fn) {
      fn = (v: string) => setFilter(name, v.trim() || null);
      commitFilter.set(name, fn);
    }
    return fn;
  };
  const zoneNote = zone ? ` (${zone})` : '';
  // Small screens keep the search in view and fold the other filters away.
  const small = useMediaQuery('(max-width: 36em)') ?? false;
  const [open, setOpen] = useState(false);
  const showAll = !small || open;
  const active = Object.keys(view.filters).length + (view.from ? 1 : 0) + (view.to ? 1 : 0);
  const search = (
    <DebouncedInput
      label={t('LOG_SEARCH')}
      placeholder={t('LOG_SEARCH_PLACEHOLDER')}
      leftSection={<IconSearch size={16} />}
      value={view.q}
      onCommit={commitSearch}
    />
  );

  const grid = (
    <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }} spacing="sm" verticalSpacing="xs">
      {!small && search}
      {filters.map((f) => {
        const value = view.filters[f.name];
        switch (f.type) {
          case 'multi':
            return (
              <MultiSelect
                key={f.name}
                label={t(f.label)}
                placeholder={Array.isArray(value) && value.length ? undefined : t('LOG_ANY')}
                data={f.options?.(t) ?? []}
                value={Array.isArray(value) ? value : value ? [value] : []}
                onChange={(v) => setFilter(f.name, v)}
                clearable
                searchable
                comboboxProps={{ withinPortal: true }}
              />
            );
          case 'select':
            return (
              <Select
                key={f.name}
                label={t(f.label)}
                placeholder={t('LOG_ANY')}
                data={f.options?.(t) ?? []}
                value={typeof value === 'string' ? value : null}
                onChange={(v) => setFilter(f.name, v)}
                clearable
                comboboxProps={{ withinPortal: true }}
              />
            );
          case 'checkbox':
            return (
              <Checkbox
                key={f.name}
                label={t(f.label)}
                checked={value === 'true'}
                onChange={(e) => setFilter(f.name, e.currentTarget.checked ? 'true' : null)}
                mt={{ base: 0, xs: 30 }}
              />
            );
          default:
            return (
              <DebouncedInput
                key={f.name}
                label={t(f.label)}
                placeholder={t('LOG_ANY')}
                numeric={f.type === 'number'}
                value={typeof value === 'string' ? value : ''}
                onCommit={committer(f.name)}
              />
            );
        }
      })}
      <TextInput
        type="date"
        label={`${t('LOG_FROM')}${zoneNote}`}
        value={view.from}
        max={view.to || undefined}
        onChange={(e) => set({ from: e.currentTarget.value })}
      />
      <TextInput
        type="date"
        label={`${t('LOG_TO')}${zoneNote}`}
        value={view.to}
        min={view.from || undefined}
        onChange={(e) => set({ to: e.currentTarget.value })}
      />
      <Select
        label={t('LOG_PAGE_SIZE')}
        data={PAGE_SIZES.map((n) => ({ value: String(n), label: String(n) }))}
        value={String(view.limit)}
        onChange={(v) => v && set({ limit: Number(v) })}
        allowDeselect={false}
        comboboxProps={{ withinPortal: true }}
      />
    </SimpleGrid>
  );

  return (
    <form aria-label={t('LOG_FILTERS')} onSubmit={(e) => e.preventDefault()}>
      {small && (
        <Group gap="xs" wrap="nowrap" align="flex-end" mb={showAll ? 'xs' : 0}>
          <div style={{ flex: 1 }}>{search}</div>
          <Button
            variant={active ? 'light' : 'default'}
            leftSection={<IconAdjustmentsHorizontal size={16} />}
            onClick={() => setOpen((o) => !o)}
            aria-expanded={showAll}
          >
            {active ? `${t('LOG_MORE_FILTERS')} (${active})` : t('LOG_MORE_FILTERS')}
          </Button>
        </Group>
      )}
      {small ? <Collapse expanded={open}>{grid}</Collapse> : grid}
      {hasFilters(view) && (
        <Group justify="flex-end" mt="xs">
          <Button
            variant="subtle"
            size="xs"
            leftSection={<IconX size={14} />}
            onClick={() => onChange({ q: '', from: '', to: '', limit: view.limit, filters: {} })}
          >
            {t('LOG_CLEAR_FILTERS')}
          </Button>
        </Group>
      )}
    </form>
  );
}
