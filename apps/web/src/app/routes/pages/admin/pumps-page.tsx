import { type AdminPump, PumpCreateSchema } from '@forecourt/contract/admin';
import { TextInput } from '@mantine/core';
import { useInfiniteQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import type { DataTableColumn } from '../../../../components/data-table/data-table.tsx';
import { decommissionAndRefresh } from './api/admin-mutations.ts';
import { adminQueries } from './api/admin-queries.ts';
import { AdminScreen, agentsOnly, useEditDialog, useSearchText } from './components/admin-screen.tsx';
import { AdminTable } from './components/admin-table.tsx';
import { toNumber, useEntityForm } from './components/entity-form.tsx';
import { useSiteNames } from './components/entity-options.ts';
import { FormModal } from './components/form-modal.tsx';
import { ParentFilter, ParentPicker, useParentFilter } from './components/parent-select.tsx';
import { RowActions } from './components/row-actions.tsx';

type PumpForm = z.input<typeof PumpCreateSchema>;

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
  const { form, save, message } = useEntityForm({
    entity: 'pumps',
    schema: PumpCreateSchema,
    fields: ['site_id', 'pump_no'],
    values: initialValues,
    opened,
    row: pump,
    preset: siteId,
    name: (v) => String(v.pump_no),
    onSaved: onClose,
  });
  return (
    <FormModal
      opened={opened}
      onClose={onClose}
      title={pump ? t('ADMIN_EDIT_PUMP', { name: pump.pump_no }) : t('ADMIN_CREATE_PUMP')}
      {...save}
    >
      <ParentPicker
        kind="site"
        control={form.control}
        name="site_id"
        chosenId={pump?.site_id}
        error={message('site_id')}
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
  const siteId = useParentFilter('site');
  const query = useInfiniteQuery(adminQueries.pumps({ q, site_id: siteId }));
  const siteName = useSiteNames();
  const dialog = useEditDialog<AdminPump>();
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
            onEdit={() => dialog.edit(p)}
            onDecommission={() => decommissionAndRefresh(client, 'pumps', p.id)}
          />
        ),
      },
    ],
    [t, client, siteName, dialog.edit],
  );
  return (
    <AdminScreen
      title={t('ADMIN_PUMPS')}
      createLabel={t('ADMIN_CREATE_PUMP')}
      onCreate={dialog.create}
      filters={<ParentFilter kind="site" />}
    >
      <AdminTable query={query} columns={columns} rowKey={(p) => p.id} label={t('ADMIN_PUMPS')} q={q} />
      <PumpFormModal opened={dialog.opened} onClose={dialog.close} pump={dialog.editing} siteId={siteId} />
    </AdminScreen>
  );
}
