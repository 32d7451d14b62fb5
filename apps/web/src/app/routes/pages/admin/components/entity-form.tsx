import { zodResolver } from '@hookform/resolvers/zod';
import { SimpleGrid, TextInput } from '@mantine/core';
import { useEffect } from 'react';
import {
  type DefaultValues,
  type FieldPath,
  type FieldValues,
  type Resolver,
  type UseFormRegister,
  useForm,
} from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { ZodType } from 'zod';
import { translateMessage } from '../../../../../i18n/messages.ts';
import type { AdminEntity } from '../api/admin-queries.ts';
import { useEntitySave } from './form-modal.tsx';

/** A number typed in a text field, as the schema wants it: an empty field is no value. */
export const toNumber = (v: unknown) => (v === '' || v === null || v === undefined ? undefined : Number(v));

export interface EntityFormOptions<In extends FieldValues, Out, R, P> {
  entity: AdminEntity;
  /** The contract's schema of the body (`XCreateSchema`): the form's checks and messages. */
  schema: ZodType<Out, In>;
  /** The form's fields: server messages naming one of them are shown under it. */
  fields: readonly FieldPath<In>[];
  /** The values the form opens with, from the row being edited (or none) and what the page chose in advance. */
  values: (row: R | null | undefined, preset: P | undefined) => Partial<In>;
  opened: boolean;
  /** The row being edited; a new one is created without it. */
  row: R | null | undefined;
  /** A parent chosen in advance for a new row (the site filtered on). */
  preset?: P;
  /** How the saved object is named in the toast. */
  name: (values: Out) => string;
  onSaved: () => void;
}

/**
 * The form of one entity's modal: checked by its contract schema, filled again each time the modal opens,
 * saved by POST or PATCH (`useEntitySave`); `message(field)` is the field's message, translated.
 */
export function useEntityForm<In extends FieldValues, Out, R extends { id: number }, P = undefined>({
  entity,
  schema,
  fields,
  values,
  opened,
  row,
  preset,
  name,
  onSaved,
}: EntityFormOptions<In, Out, R, P>) {
  const { t } = useTranslation();
  const form = useForm<In, unknown, Out>({
    // zodResolver cannot follow a generic schema: the caller's types are the schema's own.
    resolver: zodResolver(schema as never) as unknown as Resolver<In, unknown, Out>,
    defaultValues: values(row, preset) as DefaultValues<In>,
  });
  useEffect(() => {
    if (opened) form.reset(values(row, preset) as DefaultValues<In>);
  }, [opened, row, preset, values, form]);
  const save = useEntitySave(form, { entity, id: row?.id, fields, body: (v) => v, name, onSaved });
  const errors = form.formState.errors as Record<string, { message?: string } | undefined>;
  const message = (field: FieldPath<In>) => translateMessage(t, errors[field]?.message) || undefined;
  return { form, save, message };
}

export interface CoordinateFieldsProps<F extends FieldValues> {
  register: UseFormRegister<F>;
  message: (field: FieldPath<F>) => string | undefined;
  required?: boolean;
}

/** Latitude and longitude side by side (`lat`, `lng` of the form), typed as decimals. */
export function CoordinateFields<F extends FieldValues>({
  register,
  message,
  required,
}: CoordinateFieldsProps<F>) {
  const { t } = useTranslation();
  const field = (name: 'lat' | 'lng', label: string) => (
    <TextInput
      label={t(label)}
      required={required}
      inputMode="decimal"
      {...register(name as FieldPath<F>, { setValueAs: toNumber })}
      error={message(name as FieldPath<F>)}
    />
  );
  return (
    <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
      {field('lat', 'ADMIN_LAT')}
      {field('lng', 'ADMIN_LNG')}
    </SimpleGrid>
  );
}
