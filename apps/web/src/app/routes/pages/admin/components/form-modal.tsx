import { Button, Group, Modal, Stack } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, type ReactNode, useState } from 'react';
import type { FieldValues, UseFormReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { MessageAlert } from '../../../../../components/message-alert.tsx';
import { toast } from '../../../../../lib/toast.ts';
import { createEntity, invalidateAfter, patchEntity } from '../api/admin-mutations.ts';
import type { AdminEntity } from '../api/admin-queries.ts';
import { serverErrors } from './server-errors.ts';

export interface EntitySave<Out> {
  entity: AdminEntity;
  /** The row being edited, else a new one is created. */
  id?: number;
  /** The form's fields: server messages naming one of them are shown under it. */
  fields: readonly string[];
  /** The body to send, from the form's validated values. */
  body: (values: Out) => unknown;
  /** How the saved object is named in the toast. */
  name: (values: Out) => string;
  onSaved: () => void;
}

/**
 * Saving a form: POST (create) or PATCH (edit) through the contract-validated body; on 400/409 each
 * message naming a field goes under that field (`setError`), the rest above the buttons.
 */
export function useEntitySave<In extends FieldValues, Out>(
  form: UseFormReturn<In, unknown, Out>,
  save: EntitySave<Out>,
) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const [rest, setRest] = useState<string[]>([]);
  const mutation = useMutation({
    mutationFn: (values: Out) =>
      save.id === undefined
        ? createEntity(save.entity, save.body(values))
        : patchEntity(save.entity, save.id, save.body(values)),
    onMutate: () => setRest([]),
    onSuccess: async (_saved, values) => {
      toast.success(t(save.id === undefined ? 'ADMIN_CREATED' : 'ADMIN_SAVED', { name: save.name(values) }));
      save.onSaved();
      await invalidateAfter(client, save.entity);
    },
    onError: (error) => {
      const { byField, rest: others } = serverErrors(error, save.fields);
      for (const [field, message] of Object.entries(byField)) {
        form.setError(field as never, { type: 'server', message }, { shouldFocus: true });
      }
      setRest(others);
    },
  });
  const onSubmit = form.handleSubmit((values) => mutation.mutate(values));
  return { onSubmit, pending: mutation.isPending, rest, clear: () => setRest([]) };
}

export interface FormModalProps {
  opened: boolean;
  onClose: () => void;
  /** Title, already translated. */
  title: string;
  onSubmit: (event?: FormEvent) => void;
  pending: boolean;
  /** Server messages that name no field. */
  rest: string[];
  /** Modal width. @default 'md' */
  size?: string;
  children: ReactNode;
}

/** A create / edit form in a modal: fields, the messages that name no field, Cancel and Save. */
export function FormModal({
  opened,
  onClose,
  title,
  onSubmit,
  pending,
  rest,
  size = 'md',
  children,
}: FormModalProps) {
  const { t } = useTranslation();
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={title}
      size={size}
      closeButtonProps={{ 'aria-label': t('CLOSE') }}
    >
      <form onSubmit={onSubmit} noValidate aria-label={title}>
        <Stack gap="sm">
          {children}
          {rest.length > 0 && (
            <MessageAlert messages={rest} color="red" role="alert" title={t('ADMIN_FORM_ERRORS')} />
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('CANCEL')}
            </Button>
            <Button type="submit" loading={pending}>
              {t('SAVE')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
