import { userKind } from '@forecourt/contract/users';
import { Group, Stack, TextInput } from '@mantine/core';
import { useDebouncedCallback } from '@mantine/hooks';
import { IconSearch } from '@tabler/icons-react';
import { type ComponentType, type ReactNode, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { NotAllowedPage, PageTitleBar } from '../../../../../components/page-parts.tsx';
import { useSession } from '../../../../../lib/auth/session.ts';
import { useDocumentTitle } from '../../../../../lib/use-document-title.ts';

/** Typing settles before the list is asked again. */
export const SEARCH_DELAY_MS = 300;

/** A parameter of a list kept in the URL (`?q=`, a filter), so it survives a reload and can be linked. */
export function useUrlParam(name: string): [string, (value: string) => void] {
  const [params, setParams] = useSearchParams();
  const value = params.get(name) ?? '';
  const set = (next: string) =>
    setParams(
      (current) => {
        const out = new URLSearchParams(current);
        if (next) out.set(name, next);
        else out.delete(name);
        return out;
      },
      { replace: true },
    );
  return [value, set];
}

/** The search text of a list (`?q=`). */
export const useSearchText = () => useUrlParam('q');

/** The create / edit modal of a page: which row it edits (null: a new one) and whether it is open. */
export function useEditDialog<T>() {
  const [editing, setEditing] = useState<T | null>(null);
  const [opened, setOpened] = useState(false);
  const actions = useMemo(
    () => ({
      create: () => {
        setEditing(null);
        setOpened(true);
      },
      edit: (row: T) => {
        setEditing(row);
        setOpened(true);
      },
      close: () => setOpened(false),
    }),
    [],
  );
  return { editing, opened, ...actions };
}

function SearchBox({ label }: { label: string }) {
  const { t } = useTranslation();
  const [q, setQ] = useSearchText();
  const [text, setText] = useState(q);
  const push = useDebouncedCallback(setQ, SEARCH_DELAY_MS);
  useEffect(() => setText(q), [q]);
  return (
    <TextInput
      aria-label={t('ADMIN_SEARCH_LABEL', { name: label })}
      placeholder={t('SEARCH')}
      leftSection={<IconSearch size={14} aria-hidden />}
      value={text}
      onChange={(e) => {
        setText(e.currentTarget.value);
        push(e.currentTarget.value.trim());
      }}
      w={{ base: '100%', sm: 260 }}
    />
  );
}

export interface AdminScreenProps {
  /** Page title, already translated (also the document title). */
  title: string;
  /** Label of the create button; no button when omitted. */
  createLabel?: string;
  onCreate?: () => void;
  /** Show the `?q=` search box. @default true */
  searchable?: boolean;
  /** Extra filters beside the search box. */
  filters?: ReactNode;
  children: ReactNode;
}

/**
 * A page of the Administration area for agents only: a company or site user sees why not, and the page
 * (with its requests, which would answer 403) is not mounted.
 */
export function agentsOnly(titleKey: string, Page: ComponentType) {
  return function AgentsOnlyPage() {
    const { t } = useTranslation();
    const { user } = useSession();
    if (userKind(user) === 'agent') return <Page />;
    return (
      <NotAllowedPage
        title={t(titleKey)}
        reason={t('ADMIN_AGENTS_ONLY_TITLE')}
        text={t('ADMIN_AGENTS_ONLY')}
      />
    );
  };
}

/** One page of the Administration area: its title, a create button, the search box and filters, then its table. */
export function AdminScreen({
  title,
  createLabel,
  onCreate,
  searchable = true,
  filters,
  children,
}: AdminScreenProps) {
  useDocumentTitle(title);
  return (
    <Stack p="md" gap="md" data-testid="admin-screen">
      <PageTitleBar title={title} createLabel={createLabel} onCreate={onCreate} />
      {(searchable || filters) && (
        <Group gap="sm" align="flex-end" wrap="wrap">
          {searchable && <SearchBox label={title} />}
          {filters}
        </Group>
      )}
      {children}
    </Stack>
  );
}
