import { type AdminTerminal, TerminalCreateSchema } from '@forecourt/contract/admin';
import { zodResolver } from '@hookform/resolvers/zod';
import { Select, SimpleGrid, TextInput } from '@mantine/core';
import { useInfiniteQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import type { DataTableColumn } from '../../../../components/data-table/data-table.tsx';
import { translateMessage } from '../../../../i18n/messages.ts';
import { decommissionEntity, invalidateAfter } from './api/admin-mutations.ts';
import { adminQueries } from './api/admin-queries.ts';
import { AdminScreen, agentsOnly, useSearchText, useUrlParam } from './components/admin-screen.tsx';
import { AdminTable } from './components/admin-table.tsx';
import { useSiteNames, useSiteOptions, withChosen } from './components/entity-options.ts';
import { FormModal, useEntitySave } from './components/form-modal.tsx';
import { RowActions } from './components/row-actions.tsx';
import { TokenDialog } from './components/token-dialog.tsx';

type TerminalForm = z.input<typeof TerminalCreateSchema>;
const FIELDS = ['site_id', 'terminal_id', 'card_acceptor_name', 'lat', 'lng'] as const;
const toNumber = (v: unknown) => (v === '' || v === null || v === undefined ? undefined : Number(v));

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
  const form = useForm<TerminalForm, unknown, z.output<typeof TerminalCreateSchema>>({
    resolver: zodResolver(TerminalCreateSchema),
    defaultValues: initialValues(terminal, siteId),
  });
  useEffect(() => {
    if (opened) form.reset(initialValues(terminal, siteId));
  }, [opened, terminal, siteId, form]);
  const save = useEntitySave(form, {
    entity: 'terminals',
    id: terminal?.id,
    fields: FIELDS,
    body: (v) => v,
    name: (v) => v.terminal_id,
    onSaved: onClose,
  });
  const sites = useSiteOptions();
  const { errors } = form.formState;
  const message = (name: (typeof FIELDS)[number]) => translateMessage(t, errors[name]?.message) || undefined;
  const siteName = useSiteNames();
  const chosen = terminal ? [{ value: String(terminal.site_id), label: siteName(terminal.site_id) }] : [];
  return (
    <FormModal
      opened={opened}
      onClose={onClose}
      title={terminal ? t('ADMIN_EDIT_TERMINAL', { name: terminal.terminal_id }) : t('ADMIN_CREATE_TERMINAL')}
      {...save}
    >
      <Controller
        control={form.control}
        name="site_id"
        render={({ field }) => (
          <Select
            label={t('ADMIN_SITE')}
            placeholder={t('ADMIN_SELECT_SITE')}
            required
            searchable
            data={withChosen(sites.options, chosen)}
            onSearchChange={sites.onSearch}
            value={field.value === undefined ? null : String(field.value)}
            onChange={(v) => field.onChange(v === null ? undefined : Number(v))}
            onBlur={field.onBlur}
            error={message('site_id')}
            nothingFoundMessage={t('ADMIN_EMPTY')}
          />
        )}
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
      <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
        <TextInput
          label={t('ADMIN_LAT')}
          inputMode="decimal"
          {...form.register('lat', { setValueAs: toNumber })}
          error={message('lat')}
        />
        <TextInput
          label={t('ADMIN_LNG')}
          inputMode="decimal"
          {...form.register('lng', { setValueAs: toNumber })}
          error={message('lng')}
        />
      </SimpleGrid>
    </FormModal>
  );
}

/** `#/admin/terminals`: the agent's terminals, optionally of one site (`?site_id=`). */
export default agentsOnly('ADMIN_TERMINALS', TerminalsPage);

function TerminalsPage() {
  const { t } = useTranslation();
  const client = useQueryClient();
  const [q] = useSearchText();
  const [site, setSite] = useUrlParam('site_id');
  const siteId = site ? Number(site) : undefined;
  const query = useInfiniteQuery(adminQueries.terminals({ q, site_id: siteId }));
  const sites = useSiteOptions();
  const siteName = useSiteNames();
  const [editing, setEditing] = useState<AdminTerminal | null>(null);
  const [open, setOpen] = useState(false);
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
            onEdit={() => {
              setEditing(term);
              setOpen(true);
            }}
            onToken={() => setTokenFor(term)}
            decommissionNote={t('ADMIN_DECOMMISSION_TERMINAL_TEXT')}
            onDecommission={async () => {
              await decommissionEntity('terminals', term.id);
              await invalidateAfter(client, 'terminals');
            }}
          />
        ),
      },
    ],
    [t, client, siteName],
  );
  return (
    <AdminScreen
      title={t('ADMIN_TERMINALS')}
      createLabel={t('ADMIN_CREATE_TERMINAL')}
      onCreate={() => {
        setEditing(null);
        setOpen(true);
      }}
      filters={
        <Select
          aria-label={t('ADMIN_FILTER_SITE')}
          placeholder={t('ADMIN_SITE')}
          clearable
          searchable
          data={withChosen(sites.options, site ? [{ value: site, label: siteName(Number(site)) }] : [])}
          onSearchChange={sites.onSearch}
          value={site || null}
          onChange={(v) => setSite(v ?? '')}
          w={{ base: '100%', sm: 240 }}
        />
      }
    >
      <AdminTable query={query} columns={columns} rowKey={(x) => x.id} label={t('ADMIN_TERMINALS')} q={q} />
      <TerminalFormModal opened={open} onClose={() => setOpen(false)} terminal={editing} siteId={siteId} />
      {tokenFor && <TokenDialog terminal={tokenFor} opened onClose={() => setTokenFor(null)} />}
    </AdminScreen>
  );
}
