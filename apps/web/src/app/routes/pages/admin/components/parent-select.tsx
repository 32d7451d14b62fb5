import { Select } from '@mantine/core';
import { type Control, Controller, type FieldPath, type FieldValues } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useUrlParam } from './admin-screen.tsx';
import {
  useCompanyNames,
  useCompanyOptions,
  useSiteNames,
  useSiteOptions,
  withChosen,
} from './entity-options.ts';

/** What a row of the Administration hangs under: its site (terminals, pumps) or its company (sites). */
export type ParentKind = 'site' | 'company';

const PARENTS = {
  site: {
    param: 'site_id',
    useOptions: useSiteOptions,
    useNames: useSiteNames,
    label: 'ADMIN_SITE',
    choose: 'ADMIN_SELECT_SITE',
    filter: 'ADMIN_FILTER_SITE',
    width: 240,
  },
  company: {
    param: 'company_id',
    useOptions: useCompanyOptions,
    useNames: useCompanyNames,
    label: 'ADMIN_COMPANY',
    choose: 'ADMIN_SELECT_COMPANY',
    filter: 'ADMIN_FILTER_COMPANY',
    width: 220,
  },
} as const;

/** The picker's options, searched on the server, with the chosen one kept listed while a search hides it. */
function useChoices(kind: ParentKind, chosenId: number | undefined) {
  const parent = PARENTS[kind];
  const choices = parent.useOptions();
  const nameOf = parent.useNames();
  const chosen = chosenId === undefined ? [] : [{ value: String(chosenId), label: nameOf(chosenId) }];
  return { data: withChosen(choices.options, chosen), onSearchChange: choices.onSearch };
}

/** The list's parent filter as a number (`?site_id=`, `?company_id=`), undefined when none is chosen. */
export function useParentFilter(kind: ParentKind): number | undefined {
  const [value] = useUrlParam(PARENTS[kind].param);
  return value ? Number(value) : undefined;
}

/** A list's filter by site or company, kept in the URL (`?site_id=`, `?company_id=`). */
export function ParentFilter({ kind }: { kind: ParentKind }) {
  const { t } = useTranslation();
  const parent = PARENTS[kind];
  const [value, setValue] = useUrlParam(parent.param);
  const choices = useChoices(kind, value ? Number(value) : undefined);
  return (
    <Select
      aria-label={t(parent.filter)}
      placeholder={t(parent.label)}
      clearable
      searchable
      {...choices}
      value={value || null}
      onChange={(v) => setValue(v ?? '')}
      w={{ base: '100%', sm: parent.width }}
    />
  );
}

export interface ParentPickerProps<F extends FieldValues, Out> {
  kind: ParentKind;
  control: Control<F, unknown, Out>;
  /** The form's field holding the parent's id (`site_id`, `company_id`). */
  name: FieldPath<F>;
  /** The parent of the row being edited, listed even before the options arrive. */
  chosenId?: number;
  error?: string;
}

/** The required site or company of a form, searched on the server as the user types. */
export function ParentPicker<F extends FieldValues, Out>({
  kind,
  control,
  name,
  chosenId,
  error,
}: ParentPickerProps<F, Out>) {
  const { t } = useTranslation();
  const parent = PARENTS[kind];
  const choices = useChoices(kind, chosenId);
  return (
    <Controller
      control={control}
      name={name}
      render={({ field }) => (
        <Select
          label={t(parent.label)}
          placeholder={t(parent.choose)}
          required
          searchable
          {...choices}
          value={field.value === undefined ? null : String(field.value)}
          onChange={(v) => field.onChange(v === null ? undefined : Number(v))}
          onBlur={field.onBlur}
          error={error}
          nothingFoundMessage={t('ADMIN_EMPTY')}
        />
      )}
    />
  );
}
