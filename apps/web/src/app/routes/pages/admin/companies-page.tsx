import { type Company, CompanyCreateSchema } from '@forecourt/contract/admin';
import { zodResolver } from '@hookform/resolvers/zod';
import { TextInput } from '@mantine/core';
import { useInfiniteQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import type { DataTableColumn } from '../../../../components/data-table/data-table.tsx';
import { translateMessage } from '../../../../i18n/messages.ts';
import { decommissionEntity, invalidateAfter } from './api/admin-mutations.ts';
import { adminQueries } from './api/admin-queries.ts';
import { AdminScreen, agentsOnly, useSearchText } from './components/admin-screen.tsx';
import { AdminTable } from './components/admin-table.tsx';
import { FormModal, useEntitySave } from './components/form-modal.tsx';
import { RowActions } from './components/row-actions.tsx';

type CompanyForm = z.input<typeof CompanyCreateSchema>;

export interface CompanyFormModalProps {
  opened: boolean;
  onClose: () => void;
  /** The company being edited; a new one is created without it. */
  company?: Company | null;
}

/** Create or rename a company (validated by the contract's CompanyCreateSchema). */
export function CompanyFormModal({ opened, onClose, company }: CompanyFormModalProps) {
  const { t } = useTranslation();
  const form = useForm<CompanyForm, unknown, z.output<typeof CompanyCreateSchema>>({
    resolver: zodResolver(CompanyCreateSchema),
    defaultValues: { name: company?.name ?? '' },
  });
  useEffect(() => {
    if (opened) form.reset({ name: company?.name ?? '' });
  }, [opened, company, form]);
  const save = useEntitySave(form, {
    entity: 'companies',
    id: company?.id,
    fields: ['name'],
    body: (v) => v,
    name: (v) => v.name,
    onSaved: onClose,
  });
  const { errors } = form.formState;
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
        error={translateMessage(t, errors.name?.message) || undefined}
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
  const [editing, setEditing] = useState<Company | null>(null);
  const [open, setOpen] = useState(false);
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
            onEdit={() => {
              setEditing(c);
              setOpen(true);
            }}
            onDecommission={async () => {
              await decommissionEntity('companies', c.id);
              await invalidateAfter(client, 'companies');
            }}
          />
        ),
      },
    ],
    [t, client],
  );
  return (
    <AdminScreen
      title={t('ADMIN_COMPANIES')}
      createLabel={t('ADMIN_CREATE_COMPANY')}
      onCreate={() => {
        setEditing(null);
        setOpen(true);
      }}
    >
      <AdminTable query={query} columns={columns} rowKey={(c) => c.id} label={t('ADMIN_COMPANIES')} q={q} />
      <CompanyFormModal opened={open} onClose={() => setOpen(false)} company={editing} />
    </AdminScreen>
  );
}
