import { useDebouncedValue } from '@mantine/hooks';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { adminQueries } from '../api/admin-queries.ts';

/** How many choices a company or site picker offers at once; typing narrows them on the server (`q`). */
export const OPTIONS_LIMIT = 200;

export interface Option {
  value: string;
  label: string;
}

/** The agent's companies as picker options, searched on the server as the user types. */
export function useCompanyOptions() {
  const [search, setSearch] = useState('');
  const [q] = useDebouncedValue(search.trim(), 250);
  const query = useInfiniteQuery(adminQueries.companies({ q }, OPTIONS_LIMIT));
  const options = useMemo<Option[]>(
    () => (query.data?.pages[0]?.rows ?? []).map((c) => ({ value: String(c.id), label: c.name })),
    [query.data],
  );
  return { options, loading: query.isPending, onSearch: setSearch };
}

/** The agent's sites as picker options (`title (number)`), optionally of one company. */
export function useSiteOptions(companyId?: number) {
  const [search, setSearch] = useState('');
  const [q] = useDebouncedValue(search.trim(), 250);
  const query = useInfiniteQuery(adminQueries.sites({ q, company_id: companyId }, OPTIONS_LIMIT));
  const options = useMemo<Option[]>(
    () =>
      (query.data?.pages[0]?.rows ?? []).map((s) => ({
        value: String(s.id),
        label: `${s.title} (${s.number})`,
      })),
    [query.data],
  );
  return { options, loading: query.isPending, onSearch: setSearch };
}

/** Keeps the chosen options listed while a search hides them (a multi-select shows every chosen value). */
export function withChosen(options: Option[], chosen: Option[]): Option[] {
  const seen = new Set(options.map((o) => o.value));
  return [...options, ...chosen.filter((o) => !seen.has(o.value))];
}

/** How many companies or sites the tables name by looking them up; beyond that a row shows `#id`. */
export const NAMES_LIMIT = 1000;

/** `id → name` of the agent's companies (for the sites table), `#id` for one not (yet) known. */
export function useCompanyNames() {
  const query = useInfiniteQuery(adminQueries.companies({}, NAMES_LIMIT));
  return useMemo(() => {
    const names = new Map((query.data?.pages[0]?.rows ?? []).map((c) => [c.id, c.name]));
    return (id: number) => names.get(id) ?? `#${id}`;
  }, [query.data]);
}

/** `id → "title (number)"` of the agent's sites (for the terminals, pumps and users tables and pickers). */
export function useSiteNames() {
  const query = useInfiniteQuery(adminQueries.sites({}, NAMES_LIMIT));
  return useMemo(() => {
    const names = new Map((query.data?.pages[0]?.rows ?? []).map((s) => [s.id, `${s.title} (${s.number})`]));
    return (id: number) => names.get(id) ?? `#${id}`;
  }, [query.data]);
}
