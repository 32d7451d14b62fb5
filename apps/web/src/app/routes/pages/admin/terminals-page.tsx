import { type AdminTerminal, TerminalCreateSchema } from '@forecourt/contract/admin';
import { TextInput } from '@mantine/core';
import { useInfiniteQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import type { DataTableColumn } from '../../../../components/data-table/data-table.tsx';
import { decommissionAndRefresh } from './api/admin-mutations.ts';
import { adminQueries } from './api/admin-queries.ts';
import { AdminScreen, agentsOnly, useEditDialog, useSearchText } from './components/admin-screen.tsx';
import { AdminTable } from './components/admin-table.tsx';
import { CoordinateFields, useEntityForm } from './components/entity-form.tsx';
import { useSiteNames } from './components/entity-options.ts';
import { FormModal } from './components/form-modal.tsx';
import { ParentFilter, ParentPicker, useParentFilter } from './components/parent-select.tsx';
import { RowActions } from './components/row-actions.tsx';
import { TokenDialog } from './components/token-dialog.tsx';

type TerminalForm = z.input<typeof TerminalCreateSchema>;

function initialValues(terminal: AdminTerminal | null | undefined, siteId?: number): Partial<TerminalForm> {
  return {
    site_id: terminal?.site_id ?? siteId,
    terminal_id: terminal?.terminal_id ?? '',
    card_acceptor_name: terminal?.card_acceptor_name ?? '',
    lat: terminal?.lat ?? undefined,
    lng: terminal?.lng ?? undefined,
  } as Partial<TerminalForm>;
}

export interface TerminalFormModalProps {
  opened: boolean;
  onClose: () => void;
  /** The terminal being edited; a new one is created without it. */
  terminal?: AdminTerminal | null;
  /** Site chosen in advance for a new terminal. */
  siteId?: number;
}

/** Create or edit a terminal (the contract's TerminalCreateSchema). */
export function TerminalFormModal({ opened, onClose, terminal, siteId }: TerminalFormModalProps) {
  const { t } = useTranslation();
  const { form, save, message } = useEntityForm({
    entity: 'terminals',
    schema: TerminalCreateSchema,
    fields: ['site_id', 'terminal_id', 'card_acceptor_name', 'lat', 'lng'],
    values: initialValues,
    opened,
    row: terminal,
    preset: siteId,
    name: (v) => v.terminal_id,
    onSaved: onClose,
  });
  return (
    <FormModal
      opened={opened}
      onClose={onClose}
      title={terminal ? t('ADMIN_EDIT_TERMINAL', { name: terminal.terminal_id }) : t('ADMIN_CREATE_TERMINAL')}
      {...save}
    >
      <ParentPicker
        kind="site"
        control={form.control}
        name="site_id"
        chosenId={terminal?.site_id}
        error={message('site_id')}
      />
      <TextInput
        label={t('ADMIN_TERMINAL_ID')}
        required
        {...form.register('terminal_id')}
        error={message('terminal_id')}
      />
      <TextInput
        label={t('ADMIN_CARD_ACCEPTOR')}
        {...form.register('card_acceptor_name')}
        error={message('card_acceptor_name')}
      />
      <CoordinateFields register={form.register} message={message} />
    </FormModal>
  );
}

/** `#/admin/terminals`: the agent's terminals, optionally of one site (`?site_id=`). */
export default agentsOnly('ADMIN_TERMINALS', TerminalsPage);

function TerminalsPage() {
  const { t } = useTranslation();
  const client = useQueryClient();
  const [q] = useSearchText();
  const siteId = useParentFilter('site');
  const query = useInfiniteQuery(adminQueries.terminals({ q, site_id: siteId }));
  const siteName = useSiteNames();
  const dialog = useEditDialog<AdminTerminal>();
  const [tokenFor, setTokenFor] = useState<AdminTerminal | null>(null);
  const columns = useMemo<DataTableColumn<AdminTerminal>[]>(
    () => [
      { key: 'id', header: t('ADMIN_ID'), width: '4.5rem', nowrap: true, visibleFrom: 'sm' },
      { key: 'terminal_id', header: t('ADMIN_TERMINAL_ID'), nowrap: true },
      { key: 'site_id', header: t('ADMIN_SITE'), visibleFrom: 'sm', render: (x) => siteName(x.site_id) },
      { key: 'card_acceptor_name', header: t('ADMIN_CARD_ACCEPTOR'), visibleFrom: 'md' },
      {
        key: 'actions',
        header: t('ADMIN_ACTIONS'),
        width: '8.5rem',
        render: (term) => (
          <RowActions
            name={term.terminal_id}
            onEdit={() => dialog.edit(term)}
            onToken={() => setTokenFor(term)}
            decommissionNote={t('ADMIN_DECOMMISSION_TERMINAL_TEXT')}
            onDecommission={() => decommissionAndRefresh(client, 'terminals', term.id)}
          />
        ),
      },
    ],
    [t, client, siteName, dialog.edit],
  );
  return (
    <AdminScreen
      title={t('ADMIN_TERMINALS')}
      createLabel={t('ADMIN_CREATE_TERMINAL')}
      onCreate={dialog.create}
      filters={<ParentFilter kind="site" />}
    >
      <AdminTable query={query} columns={columns} rowKey={(x) => x.id} label={t('ADMIN_TERMINALS')} q={q} />
      <TerminalFormModal
        opened={dialog.opened}
        onClose={dialog.close}
        terminal={dialog.editing}
        siteId={siteId}
      />
      {tokenFor && <TokenDialog terminal={tokenFor} opened onClose={() => setTokenFor(null)} />}
    </AdminScreen>
  );
}
