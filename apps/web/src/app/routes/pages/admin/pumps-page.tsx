import { type AdminPump, PumpCreateSchema } from '@forecourt/contract/admin';
import { zodResolver } from '@hookform/resolvers/zod';
import { Select, TextInput } from '@mantine/core';
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

type PumpForm = z.input<typeof PumpCreateSchema>;
const FIELDS = ['site_id', 'pump_no'] as const;
const toNumber = (v: unknown) => (v === '' || v === null || v === undefined ? undefined : Number(v));

function initialValues(pump: AdminPump | null | undefined, siteId?: number): Partial<PumpForm> {
  return { site_id: pump?.site_id ?? siteId, pump_no: pump?.pump_no } as Partial<PumpForm>;
}

export interface PumpFormModalProps {
  opened: boolean;
  onClose: () => void;
  /** The pump being edited; a new one is created without it. */
  pump?: AdminPump | null;
  /** Site chosen in advance for a new pump. */
  siteId?: number;
}

/** Create or edit a pump (the contract's PumpCreateSchema): its site and number. */
export function PumpFormModal({ opened, onClose, pump, siteId }: PumpFormModalProps) {
  const { t } = useTranslation();
  const form = useForm<PumpForm, unknown, z.output<typeof PumpCreateSchema>>({
    resolver: zodResolver(PumpCreateSchema),
    defaultValues: initialValues(pump, siteId),
  });
  useEffect(() => {
    if (opened) form.reset(initialValues(pump, siteId));
  }, [opened, pump, siteId, form]);
  const save = useEntitySave(form, {
    entity: 'pumps',
    id: pump?.id,
    fields: FIELDS,
    body: (v) => v,
    name: (v) => String(v.pump_no),
    onSaved: onClose,
  });
  const sites = useSiteOptions();
  const { errors } = form.formState;
  const message = (name: (typeof FIELDS)[number]) => translateMessage(t, errors[name]?.message) || undefined;
  const siteName = useSiteNames();
  const chosen = pump ? [{ value: String(pump.site_id), label: siteName(pump.site_id) }] : [];
  return (
    <FormModal
      opened={opened}
      onClose={onClose}
      title={pump ? t('ADMIN_EDIT_PUMP', { name: pump.pump_no }) : t('ADMIN_CREATE_PUMP')}
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
        label={t('ADMIN_PUMP_NO')}
        required
        inputMode="numeric"
        {...form.register('pump_no', { setValueAs: toNumber })}
        error={message('pump_no')}
      />
    </FormModal>
  );
}

/** `#/admin/pumps`: the agent's pumps, optionally of one site (`?site_id=`). */
export default agentsOnly('ADMIN_PUMPS', PumpsPage);

function PumpsPage() {
  const { t } = useTranslation();
  const client = useQueryClient();
  const [q] = useSearchText();
  const [site, setSite] = useUrlParam('site_id');
  const siteId = site ? Number(site) : undefined;
  const query = useInfiniteQuery(adminQueries.pumps({ q, site_id: siteId }));
  const sites = useSiteOptions();
  const siteName = useSiteNames();
  const [editing, setEditing] = useState<AdminPump | null>(null);
  const [open, setOpen] = useState(false);
  const columns = useMemo<DataTableColumn<AdminPump>[]>(
    () => [
      { key: 'id', header: t('ADMIN_ID'), width: '4.5rem', nowrap: true },
      { key: 'pump_no', header: t('ADMIN_PUMP_NO'), nowrap: true },
      { key: 'site_id', header: t('ADMIN_SITE'), render: (p) => siteName(p.site_id) },
      {
        key: 'actions',
        header: t('ADMIN_ACTIONS'),
        width: '6.5rem',
        render: (p) => (
          <RowActions
            name={t('ADMIN_PUMP_NAME', { pump: p.pump_no, site: siteName(p.site_id) })}
            onEdit={() => {
              setEditing(p);
              setOpen(true);
            }}
            onDecommission={async () => {
              await decommissionEntity('pumps', p.id);
              await invalidateAfter(client, 'pumps');
            }}
          />
        ),
      },
    ],
    [t, client, siteName],
  );
  return (
    <AdminScreen
      title={t('ADMIN_PUMPS')}
      createLabel={t('ADMIN_CREATE_PUMP')}
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
      <AdminTable query={query} columns={columns} rowKey={(p) => p.id} label={t('ADMIN_PUMPS')} q={q} />
      <PumpFormModal opened={open} onClose={() => setOpen(false)} pump={editing} siteId={siteId} />
    </AdminScreen>
  );
}
