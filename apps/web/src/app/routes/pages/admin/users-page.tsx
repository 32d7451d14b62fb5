import { type AdminUser, UserCreateSchema, UserPatchSchema } from '@forecourt/contract/admin';
import { Badge, MultiSelect, Select, Switch, Text, TextInput } from '@mantine/core';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { Controller } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { ZodType, z } from 'zod';
import type { DataTableColumn } from '../../../../components/data-table/data-table.tsx';
import { adminQueries } from './api/admin-queries.ts';
import { AdminScreen, agentsOnly, useEditDialog, useSearchText } from './components/admin-screen.tsx';
import { AdminTable } from './components/admin-table.tsx';
import { useEntityForm } from './components/entity-form.tsx';
import {
  type Option,
  useCompanyNames,
  useCompanyOptions,
  useSiteNames,
  useSiteOptions,
  withChosen,
} from './components/entity-options.ts';
import { FormModal } from './components/form-modal.tsx';
import { RowActions } from './components/row-actions.tsx';

type UserForm = z.input<typeof UserCreateSchema> & { disabled?: boolean };
type UserOut = z.output<typeof UserCreateSchema>;
const ROLE_LABELS = {
  agent: 'ADMIN_ROLE_AGENT',
  company: 'ADMIN_ROLE_COMPANY',
  site: 'ADMIN_ROLE_SITE',
} as const;

function initialValues(user: AdminUser | null | undefined): Partial<UserForm> {
  return {
    username: user?.username ?? '',
    email: user?.email ?? '',
    name: user?.name ?? '',
    role: user?.role ?? 'site',
    company_ids: user?.company_ids ?? [],
    site_ids: user?.site_ids ?? [],
    ...(user ? { disabled: user.disabled } : {}),
  } as Partial<UserForm>;
}

const idOptions = (ids: number[] | undefined, name: (id: number) => string): Option[] =>
  (ids ?? []).map((id) => ({ value: String(id), label: name(id) }));

export interface UserFormModalProps {
  opened: boolean;
  onClose: () => void;
  /** The user being edited; a new one is created (and mailed a set-password link) without it. */
  user?: AdminUser | null;
}

/**
 * Create a user or change one's role, companies or sites, or disable it (UserCreateSchema, UserPatchSchema).
 * A company user reaches its companies, a site user its sites; an agent everything of the agent.
 */
export function UserFormModal({ opened, onClose, user }: UserFormModalProps) {
  const { t } = useTranslation();
  const { form, save, message } = useEntityForm({
    entity: 'users',
    // One form for both bodies; each is checked by its own schema.
    schema: (user ? UserPatchSchema : UserCreateSchema) as unknown as ZodType<UserOut, UserForm>,
    fields: ['username', 'email', 'name', 'role', 'company_ids', 'site_ids', 'disabled'],
    values: initialValues,
    opened,
    row: user,
    name: (v) => v.username ?? user?.username ?? '',
    onSaved: onClose,
  });
  const companies = useCompanyOptions();
  const sites = useSiteOptions();
  const companyName = useCompanyNames();
  const siteName = useSiteNames();
  const role = form.watch('role');
  return (
    <FormModal
      opened={opened}
      onClose={onClose}
      title={user ? t('ADMIN_EDIT_USER', { name: user.username }) : t('ADMIN_CREATE_USER')}
      {...save}
    >
      <TextInput
        label={t('ADMIN_USERNAME')}
        required
        autoComplete="off"
        {...form.register('username')}
        error={message('username')}
      />
      <TextInput
        label={t('ADMIN_EMAIL')}
        type="email"
        required
        autoComplete="off"
        {...form.register('email')}
        error={message('email')}
      />
      <TextInput label={t('ADMIN_NAME')} {...form.register('name')} error={message('name')} />
      <Controller
        control={form.control}
        name="role"
        render={({ field }) => (
          <Select
            label={t('ADMIN_ROLE')}
            required
            allowDeselect={false}
            data={(Object.keys(ROLE_LABELS) as (keyof typeof ROLE_LABELS)[]).map((r) => ({
              value: r,
              label: t(ROLE_LABELS[r]),
            }))}
            value={field.value ?? null}
            onChange={(v) => field.onChange(v)}
            onBlur={field.onBlur}
            error={message('role')}
          />
        )}
      />
      {role !== 'agent' && (
        <Controller
          control={form.control}
          name="company_ids"
          render={({ field }) => (
            <MultiSelect
              label={t('ADMIN_USER_COMPANIES')}
              searchable
              data={withChosen(companies.options, idOptions(field.value, companyName))}
              onSearchChange={companies.onSearch}
              value={(field.value ?? []).map(String)}
              onChange={(v) => field.onChange(v.map(Number))}
              onBlur={field.onBlur}
              error={message('company_ids')}
              nothingFoundMessage={t('ADMIN_EMPTY')}
            />
          )}
        />
      )}
      {role === 'site' && (
        <Controller
          control={form.control}
          name="site_ids"
          render={({ field }) => (
            <MultiSelect
              label={t('ADMIN_USER_SITES')}
              searchable
              data={withChosen(sites.options, idOptions(field.value, siteName))}
              onSearchChange={sites.onSearch}
              value={(field.value ?? []).map(String)}
              onChange={(v) => field.onChange(v.map(Number))}
              onBlur={field.onBlur}
              error={message('site_ids')}
              nothingFoundMessage={t('ADMIN_EMPTY')}
            />
          )}
        />
      )}
      {user ? (
        <Controller
          control={form.control}
          name="disabled"
          render={({ field }) => (
            <Switch
              label={t('ADMIN_DISABLE_USER')}
              checked={Boolean(field.value)}
              onChange={(e) => field.onChange(e.currentTarget.checked)}
              onBlur={field.onBlur}
              error={message('disabled')}
            />
          )}
        />
      ) : (
        <Text size="sm" c="dimmed">
          {t('ADMIN_USER_MAIL_NOTE')}
        </Text>
      )}
    </FormModal>
  );
}

/** `#/admin/users`: the users of the agent, with their role and scope. */
export default agentsOnly('ADMIN_USERS', UsersPage);

function UsersPage() {
  const { t } = useTranslation();
  const [q] = useSearchText();
  const query = useInfiniteQuery(adminQueries.users({ q }));
  const companyName = useCompanyNames();
  const siteName = useSiteNames();
  const dialog = useEditDialog<AdminUser>();
  const columns = useMemo<DataTableColumn<AdminUser>[]>(
    () => [
      { key: 'username', header: t('ADMIN_USERNAME'), nowrap: true },
      { key: 'name', header: t('ADMIN_NAME'), visibleFrom: 'md' },
      { key: 'email', header: t('ADMIN_EMAIL'), visibleFrom: 'sm' },
      {
        key: 'role',
        header: t('ADMIN_ROLE'),
        width: '9rem',
        render: (u) => (u.role ? t(ROLE_LABELS[u.role]) : t('ADMIN_ROLE_NONE')),
      },
      {
        key: 'scope',
        header: t('ADMIN_SCOPE'),
        visibleFrom: 'lg',
        render: (u) =>
          u.role === 'site'
            ? u.site_ids.map(siteName).join(', ')
            : u.role === 'company'
              ? u.company_ids.map(companyName).join(', ')
              : '',
      },
      {
        key: 'disabled',
        header: t('ADMIN_STATUS'),
        width: '6.5rem',
        visibleFrom: 'sm',
        render: (u) =>
          u.disabled ? (
            <Badge color="gray" variant="light">
              {t('ADMIN_DISABLED')}
            </Badge>
          ) : (
            <Badge color="teal" variant="light">
              {t('ADMIN_ENABLED')}
            </Badge>
          ),
      },
      {
        key: 'actions',
        header: t('ADMIN_ACTIONS'),
        width: '4.5rem',
        render: (u) => <RowActions name={u.username} onEdit={() => dialog.edit(u)} />,
      },
    ],
    [t, companyName, siteName, dialog.edit],
  );
  return (
    <AdminScreen title={t('ADMIN_USERS')} createLabel={t('ADMIN_CREATE_USER')} onCreate={dialog.create}>
      <AdminTable query={query} columns={columns} rowKey={(u) => u.id} label={t('ADMIN_USERS')} q={q} />
      <UserFormModal opened={dialog.opened} onClose={dialog.close} user={dialog.editing} />
    </AdminScreen>
  );
}
