import { type AdminSite, SiteCreateSchema, timeZoneNames } from '@forecourt/contract/admin';
import { zodResolver } from '@hookform/resolvers/zod';
import { Center, Loader, Select, SimpleGrid, Text, TextInput } from '@mantine/core';
import { useInfiniteQuery, useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useMemo, useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import type { DataTableColumn } from '../../../../components/data-table/data-table.tsx';
import { translateMessage } from '../../../../i18n/messages.ts';
import { useTileUrls } from '../../../../widgets/maps/api/get-web-config.ts';
import { decommissionEntity, invalidateAfter } from './api/admin-mutations.ts';
import { adminQueries } from './api/admin-queries.ts';
import { AdminScreen, agentsOnly, useSearchText, useUrlParam } from './components/admin-screen.tsx';
import { AdminTable } from './components/admin-table.tsx';
import { useCompanyNames, useCompanyOptions, withChosen } from './components/entity-options.ts';
import { FormModal, useEntitySave } from './components/form-modal.tsx';
import { RowActions } from './components/row-actions.tsx';

// Leaflet loads with the first site form, like the map widgets.
const SiteMapCanvas = lazy(() => import('./components/site-map-canvas.tsx'));

type SiteForm = z.input<typeof SiteCreateSchema>;
const FIELDS = ['company_id', 'title', 'number', 'lat', 'lng', 'timezone', 'address'] as const;
const toNumber = (v: unknown) => (v === '' || v === null || v === undefined ? undefined : Number(v));

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
  const form = useForm<SiteForm, unknown, z.output<typeof SiteCreateSchema>>({
    resolver: zodResolver(SiteCreateSchema),
    defaultValues: initialValues(site, companyId),
  });
  useEffect(() => {
    if (opened) form.reset(initialValues(site, companyId));
  }, [opened, site, companyId, form]);
  const save = useEntitySave(form, {
    entity: 'sites',
    id: site?.id,
    fields: FIELDS,
    body: (v) => v,
    name: (v) => v.title,
    onSaved: onClose,
  });
  const companies = useCompanyOptions();
  const zones = useMemo(timeZoneNames, []);
  const tiles = useTileUrls();
  const { errors } = form.formState;
  const message = (name: (typeof FIELDS)[number]) => translateMessage(t, errors[name]?.message) || undefined;
  const lat = form.watch('lat');
  const lng = form.watch('lng');
  const position =
    typeof lat === 'number' && typeof lng === 'number' && Number.isFinite(lat) && Number.isFinite(lng)
      ? { lat, lng }
      : null;
  const companyName = useCompanyNames();
  const chosenCompany = site ? [{ value: String(site.company_id), label: companyName(site.company_id) }] : [];

  return (
    <FormModal
      opened={opened}
      onClose={onClose}
      size="lg"
      title={site ? t('ADMIN_EDIT_SITE', { name: site.title }) : t('ADMIN_CREATE_SITE')}
      {...save}
    >
      <Controller
        control={form.control}
        name="company_id"
        render={({ field }) => (
          <Select
            label={t('ADMIN_COMPANY')}
            placeholder={t('ADMIN_SELECT_COMPANY')}
            required
            searchable
            data={withChosen(companies.options, chosenCompany)}
            onSearchChange={companies.onSearch}
            value={field.value === undefined ? null : String(field.value)}
            onChange={(v) => field.onChange(v === null ? undefined : Number(v))}
            onBlur={field.onBlur}
            error={message('company_id')}
            nothingFoundMessage={t('ADMIN_EMPTY')}
          />
        )}
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
      <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
        <TextInput
          label={t('ADMIN_LAT')}
          required
          inputMode="decimal"
          {...form.register('lat', { setValueAs: toNumber })}
          error={message('lat')}
        />
        <TextInput
          label={t('ADMIN_LNG')}
          required
          inputMode="decimal"
          {...form.register('lng', { setValueAs: toNumber })}
          error={message('lng')}
        />
      </SimpleGrid>
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
  const [company, setCompany] = useUrlParam('company_id');
  const companyId = company ? Number(company) : undefined;
  const query = useInfiniteQuery(adminQueries.sites({ q, company_id: companyId }));
  const companies = useCompanyOptions();
  const companyName = useCompanyNames();
  const [editing, setEditing] = useState<AdminSite | null>(null);
  const [open, setOpen] = useState(false);
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
            onEdit={() => {
              setEditing(s);
              setOpen(true);
            }}
            onDecommission={async () => {
              await decommissionEntity('sites', s.id);
              await invalidateAfter(client, 'sites');
            }}
          />
        ),
      },
    ],
    [t, client, companyName],
  );
  return (
    <AdminScreen
      title={t('ADMIN_SITES')}
      createLabel={t('ADMIN_CREATE_SITE')}
      onCreate={() => {
        setEditing(null);
        setOpen(true);
      }}
      filters={
        <Select
          aria-label={t('ADMIN_FILTER_COMPANY')}
          placeholder={t('ADMIN_COMPANY')}
          clearable
          searchable
          data={withChosen(
            companies.options,
            company ? [{ value: company, label: companyName(Number(company)) }] : [],
          )}
          onSearchChange={companies.onSearch}
          value={company || null}
          onChange={(v) => setCompany(v ?? '')}
          w={{ base: '100%', sm: 220 }}
        />
      }
    >
      <AdminTable query={query} columns={columns} rowKey={(s) => s.id} label={t('ADMIN_SITES')} q={q} />
      <SiteFormModal opened={open} onClose={() => setOpen(false)} site={editing} companyId={companyId} />
    </AdminScreen>
  );
}
