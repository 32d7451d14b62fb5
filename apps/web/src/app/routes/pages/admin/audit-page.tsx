import { AUDIT_ENTITIES, type AuditEntry } from '@forecourt/contract/admin';
import { Code, Select, TextInput } from '@mantine/core';
import { useDebouncedCallback } from '@mantine/hooks';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { DataTableColumn } from '../../../../components/data-table/data-table.tsx';
import { adminQueries } from './api/admin-queries.ts';
import { AdminScreen, agentsOnly, SEARCH_DELAY_MS, useUrlParam } from './components/admin-screen.tsx';
import { AdminTable } from './components/admin-table.tsx';

/** `before → after` of one entry as compact text: only the fields that changed, when both sides exist. */
export function changeText(entry: Pick<AuditEntry, 'before' | 'after'>): string {
  const before = (entry.before ?? null) as Record<string, unknown> | null;
  const after = (entry.after ?? null) as Record<string, unknown> | null;
  const show = (v: unknown) => JSON.stringify(v);
  if (before && after && typeof before === 'object' && typeof after === 'object') {
    const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].filter(
      (k) => show(before[k]) !== show(after[k]),
    );
    return keys.map((k) => `${k}: ${show(before[k])} → ${show(after[k])}`).join(', ');
  }
  if (after) return show(after);
  return show(before);
}

function UserFilter() {
  const { t } = useTranslation();
  const [user, setUser] = useUrlParam('user');
  const [text, setText] = useState(user);
  const push = useDebouncedCallback(setUser, SEARCH_DELAY_MS);
  useEffect(() => setText(user), [user]);
  return (
    <TextInput
      aria-label={t('ADMIN_AUDIT_FILTER_USER')}
      placeholder={t('ADMIN_AUDIT_FILTER_USER')}
      value={text}
      onChange={(e) => {
        setText(e.currentTarget.value);
        push(e.currentTarget.value.trim());
      }}
      w={{ base: '100%', sm: 200 }}
    />
  );
}

/** `#/admin/audit`: every administrative change, token provisioning and acknowledgement, newest first. */
export default agentsOnly('ADMIN_AUDIT', AuditPage);

function AuditPage() {
  const { t, i18n } = useTranslation();
  const [entity, setEntity] = useUrlParam('entity');
  const [user] = useUrlParam('user');
  const query = useInfiniteQuery(adminQueries.audit({ entity, user }));
  const format = useMemo(
    () => new Intl.DateTimeFormat(i18n.language, { dateStyle: 'short', timeStyle: 'medium' }),
    [i18n.language],
  );
  const columns = useMemo<DataTableColumn<AuditEntry>[]>(
    () => [
      {
        key: 'at',
        header: t('ADMIN_AUDIT_AT'),
        width: '11rem',
        nowrap: true,
        render: (e) => format.format(new Date(e.at)),
      },
      { key: 'user', header: t('ADMIN_AUDIT_USER'), width: '8rem' },
      { key: 'action', header: t('ADMIN_AUDIT_ACTION'), width: '9rem' },
      {
        key: 'entity',
        header: t('ADMIN_AUDIT_ENTITY'),
        width: '7rem',
        render: (e) => (e.entity_id === null ? e.entity : `${e.entity} #${e.entity_id}`),
      },
      {
        key: 'change',
        header: t('ADMIN_AUDIT_CHANGE'),
        visibleFrom: 'sm',
        width: '40%',
        render: (e) => (
          <Code block fz="xs" style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>
            {changeText(e)}
          </Code>
        ),
      },
    ],
    [t, format],
  );
  return (
    <AdminScreen
      title={t('ADMIN_AUDIT')}
      searchable={false}
      filters={
        <>
          <Select
            aria-label={t('ADMIN_AUDIT_FILTER_ENTITY')}
            placeholder={t('ADMIN_AUDIT_FILTER_ENTITY')}
            clearable
            data={[...AUDIT_ENTITIES]}
            value={entity || null}
            onChange={(v) => setEntity(v ?? '')}
            w={{ base: '100%', sm: 180 }}
          />
          <UserFilter />
        </>
      }
    >
      <AdminTable query={query} columns={columns} rowKey={(e) => e.id} label={t('ADMIN_AUDIT_TABLE')} />
    </AdminScreen>
  );
}
