import { type Company, CompanyCreateSchema } from '@forecourt/contract/admin';
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
import { useEntityForm } from './components/entity-form.tsx';
import { FormModal } from './components/form-modal.tsx';
import { RowActions } from './components/row-actions.tsx';

type CompanyForm = z.input<typeof CompanyCreateSchema>;

const initialValues = (company: Company | null | undefined): CompanyForm => ({ name: company?.name ?? '' });

export interface CompanyFormModalProps {
  opened: boolean;
  onClose: () => void;
  /** The company being edited; a new one is created without it. */
  company?: Company | null;
}

/** Create or rename a company (validated by the contract's CompanyCreateSchema). */
export function CompanyFormModal({ opened, onClose, company }: CompanyFormModalProps) {
  const { t } = useTranslation();
  const { form, save, message } = useEntityForm({
    entity: 'companies',
    schema: CompanyCreateSchema,
    fields: ['name'],
    values: initialValues,
    opened,
    row: company,
    name: (v) => v.name,
    onSaved: onClose,
  });
  return (
    <FormModal
      opened={opened}
      onClose={onClose}
      title={company ? t('ADMIN_EDIT_COMPANY', { name: company.name }) : t('ADMIN_CREATE_COMPANY')}
      {...save}
    >
      <TextInput
        label={t('ADMIN_NAME')}
        required
        data-autofocus
        {...form.register('name')}
        error={message('name')}
      />
    </FormModal>
  );
}

/** `#/admin/companies`: the agent's companies. */
export default agentsOnly('ADMIN_COMPANIES', CompaniesPage);

function CompaniesPage() {
  const { t } = useTranslation();
  const client = useQueryClient();
  const [q] = useSearchText();
  const query = useInfiniteQuery(adminQueries.companies({ q }));
  const dialog = useEditDialog<Company>();
  const columns = useMemo<DataTableColumn<Company>[]>(
    () => [
      { key: 'id', header: t('ADMIN_ID'), width: '5rem', nowrap: true },
      { key: 'name', header: t('ADMIN_NAME') },
      {
        key: 'actions',
        header: t('ADMIN_ACTIONS'),
        width: '7rem',
        render: (c) => (
          <RowActions
            name={c.name}
            onEdit={() => dialog.edit(c)}
            onDecommission={() => decommissionAndRefresh(client, 'companies', c.id)}
          />
        ),
      },
    ],
    [t, client, dialog.edit],
  );
  return (
    <AdminScreen
      title={t('ADMIN_COMPANIES')}
      createLabel={t('ADMIN_CREATE_COMPANY')}
      onCreate={dialog.create}
    >
      <AdminTable query={query} columns={columns} rowKey={(c) => c.id} label={t('ADMIN_COMPANIES')} q={q} />
      <CompanyFormModal opened={dialog.opened} onClose={dialog.close} company={dialog.editing} />
    </AdminScreen>
  );
}
