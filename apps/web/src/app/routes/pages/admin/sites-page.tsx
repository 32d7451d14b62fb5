import { type AdminSite, SiteCreateSchema, timeZoneNames } from '@forecourt/contract/admin';
import { Center, Loader, Select, SimpleGrid, Text, TextInput } from '@mantine/core';
import { useInfiniteQuery, useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useMemo } from 'react';
import { Controller } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import type { DataTableColumn } from '../../../../components/data-table/data-table.tsx';
import { useTileUrls } from '../../../../widgets/maps/api/get-web-config.ts';
import { decommissionAndRefresh } from './api/admin-mutations.ts';
import { adminQueries } from './api/admin-queries.ts';
import { AdminScreen, agentsOnly, useEditDialog, useSearchText } from './components/admin-screen.tsx';
import { AdminTable } from './components/admin-table.tsx';
import { CoordinateFields, useEntityForm } from './components/entity-form.tsx';
import { useCompanyNames } from './components/entity-options.ts';
import { FormModal } from './components/form-modal.tsx';
import { ParentFilter, ParentPicker, useParentFilter } from './components/parent-select.tsx';
import { RowActions } from './components/row-actions.tsx';

// Leaflet loads with the first site form, like the map widgets.
const SiteMapCanvas = lazy(() => import('./components/site-map-canvas.tsx'));

type SiteForm = z.input<typeof SiteCreateSchema>;

function initialValues(site: AdminSite | null | undefined, companyId?: number): Partial<SiteForm> {
  return {
    company_id: site?.company_id ?? companyId,
    title: site?.title ?? '',
    number: site?.number ?? '',
    lat: site?.lat,
    lng: site?.lng,
    timezone: site?.timezone ?? Intl.DateTimeFormat().resolvedOptions().timeZone ?? 'UTC',
    address: site?.address ?? null,
  } as Partial<SiteForm>;
}

export interface SiteFormModalProps {
  opened: boolean;
  onClose: () => void;
  /** The site being edited; a new one is created without it. */
  site?: AdminSite | null;
  /** Company chosen in advance for a new site. */
  companyId?: number;
}

/**
 * Create or edit a site (the contract's SiteCreateSchema): its company, title, number, position (a click on
 * the map or typed coordinates), IANA time zone from a searchable list, and address.
 */
export function SiteFormModal({ opened, onClose, site, companyId }: SiteFormModalProps) {
  const { t } = useTranslation();
  const { form, save, message } = useEntityForm({
    entity: 'sites',
    schema: SiteCreateSchema,
    fields: ['company_id', 'title', 'number', 'lat', 'lng', 'timezone', 'address'],
    values: initialValues,
    opened,
    row: site,
    preset: companyId,
    name: (v) => v.title,
    onSaved: onClose,
  });
  const zones = useMemo(timeZoneNames, []);
  const tiles = useTileUrls();
  const lat = form.watch('lat');
  const lng = form.watch('lng');
  const position =
    typeof lat === 'number' && typeof lng === 'number' && Number.isFinite(lat) && Number.isFinite(lng)
      ? { lat, lng }
      : null;

  return (
    <FormModal
      opened={opened}
      onClose={onClose}
      size="lg"
      title={site ? t('ADMIN_EDIT_SITE', { name: site.title }) : t('ADMIN_CREATE_SITE')}
      {...save}
    >
      <ParentPicker
        kind="company"
        control={form.control}
        name="company_id"
        chosenId={site?.company_id}
        error={message('company_id')}
      />
      <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
        <TextInput label={t('ADMIN_TITLE')} required {...form.register('title')} error={message('title')} />
        <TextInput
          label={t('ADMIN_NUMBER')}
          required
          {...form.register('number')}
          error={message('number')}
        />
      </SimpleGrid>
      <Text size="sm" c="dimmed">
        {t('ADMIN_SITE_MAP_HINT')}
      </Text>
      {opened && (
        <Suspense
          fallback={
            <Center h={260}>
              <Loader size="sm" />
            </Center>
          }
        >
          <SiteMapCanvas
            position={position}
            tileUrl={tiles.road}
            onPick={(p) => {
              form.setValue('lat', p.lat, { shouldValidate: true, shouldDirty: true });
              form.setValue('lng', p.lng, { shouldValidate: true, shouldDirty: true });
            }}
          />
        </Suspense>
      )}
      <CoordinateFields register={form.register} message={message} required />
      <Controller
        control={form.control}
        name="timezone"
        render={({ field }) => (
          <Select
            label={t('ADMIN_TIMEZONE')}
            placeholder={t('ADMIN_TIMEZONE_PLACEHOLDER')}
            required
            searchable
            limit={50}
            data={zones.includes(field.value ?? '') || !field.value ? zones : [field.value, ...zones]}
            value={field.value || null}
            onChange={(v) => field.onChange(v ?? '')}
            onBlur={field.onBlur}
            error={message('timezone')}
            nothingFoundMessage={t('ADMIN_EMPTY')}
          />
        )}
      />
      <TextInput label={t('ADMIN_ADDRESS')} {...form.register('address')} error={message('address')} />
    </FormModal>
  );
}

/** `#/admin/sites`: the agent's sites, optionally of one company (`?company_id=`). */
export default agentsOnly('ADMIN_SITES', SitesPage);

function SitesPage() {
  const { t } = useTranslation();
  const client = useQueryClient();
  const [q] = useSearchText();
  const companyId = useParentFilter('company');
  const query = useInfiniteQuery(adminQueries.sites({ q, company_id: companyId }));
  const companyName = useCompanyNames();
  const dialog = useEditDialog<AdminSite>();
  const columns = useMemo<DataTableColumn<AdminSite>[]>(
    () => [
      { key: 'id', header: t('ADMIN_ID'), width: '4.5rem', nowrap: true, visibleFrom: 'sm' },
      { key: 'title', header: t('ADMIN_TITLE') },
      { key: 'number', header: t('ADMIN_NUMBER'), width: '6rem', nowrap: true },
      {
        key: 'company_id',
        header: t('ADMIN_COMPANY'),
        visibleFrom: 'md',
        render: (s) => companyName(s.company_id),
      },
      {
        key: 'position',
        header: t('ADMIN_POSITION'),
        visibleFrom: 'md',
        nowrap: true,
        render: (s) => (s.lat === null || s.lng === null ? '' : `${s.lat.toFixed(4)}, ${s.lng.toFixed(4)}`),
      },
      { key: 'timezone', header: t('ADMIN_TIMEZONE'), visibleFrom: 'sm' },
      {
        key: 'actions',
        header: t('ADMIN_ACTIONS'),
        width: '6.5rem',
        render: (s) => (
          <RowActions
            name={s.title}
            onEdit={() => dialog.edit(s)}
            onDecommission={() => decommissionAndRefresh(client, 'sites', s.id)}
          />
        ),
      },
    ],
    [t, client, companyName, dialog.edit],
  );
  return (
    <AdminScreen
      title={t('ADMIN_SITES')}
      createLabel={t('ADMIN_CREATE_SITE')}
      onCreate={dialog.create}
      filters={<ParentFilter kind="company" />}
    >
      <AdminTable query={query} columns={columns} rowKey={(s) => s.id} label={t('ADMIN_SITES')} q={q} />
      <SiteFormModal
        opened={dialog.opened}
        onClose={dialog.close}
        site={dialog.editing}
        companyId={companyId}
      />
    </AdminScreen>
  );
}
