import { ActionIcon, Button, Group, Modal, Stack, Text, Tooltip } from '@mantine/core';
import { IconArchive, IconKey, IconPencil } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DialogActions } from '../../../../../components/page-parts.tsx';
import { toast } from '../../../../../lib/toast.ts';

export interface RowActionsProps {
  /** How the row is named in the buttons' accessible names and the texts. */
  name: string;
  onEdit?: () => void;
  /** Decommissions the row (DELETE); the dialog asks first and shows a refusal (409) in place. */
  onDecommission?: () => Promise<unknown>;
  /** A terminal's "Provision device token". */
  onToken?: () => void;
  /** Extra sentence in the decommission dialog (a terminal's token is cut off). */
  decommissionNote?: string;
}

/** Edit, decommission (and, for a terminal, provision its device token) buttons of one table row. */
export function RowActions({ name, onEdit, onDecommission, onToken, decommissionNote }: RowActionsProps) {
  const { t } = useTranslation();
  const [confirming, setConfirming] = useState(false);
  const mutation = useMutation({
    mutationFn: () => onDecommission?.() ?? Promise.resolve(),
    onSuccess: () => {
      setConfirming(false);
      toast.success(t('ADMIN_DECOMMISSIONED', { name }));
    },
  });
  const close = () => {
    setConfirming(false);
    mutation.reset();
  };
  return (
    <Group gap={4} wrap="nowrap">
      {onEdit && (
        <Tooltip label={t('ADMIN_EDIT_ROW', { name })} withinPortal>
          <ActionIcon variant="subtle" aria-label={t('ADMIN_EDIT_ROW', { name })} onClick={onEdit}>
            <IconPencil size={16} />
          </ActionIcon>
        </Tooltip>
      )}
      {onToken && (
        <Tooltip label={t('ADMIN_TOKEN_PROVISION')} withinPortal>
          <ActionIcon variant="subtle" aria-label={`${t('ADMIN_TOKEN_PROVISION')} ${name}`} onClick={onToken}>
            <IconKey size={16} />
          </ActionIcon>
        </Tooltip>
      )}
      {onDecommission && (
        <Tooltip label={t('ADMIN_DECOMMISSION_ROW', { name })} withinPortal>
          <ActionIcon
            variant="subtle"
            color="red"
            aria-label={t('ADMIN_DECOMMISSION_ROW', { name })}
            onClick={() => setConfirming(true)}
          >
            <IconArchive size={16} />
          </ActionIcon>
        </Tooltip>
      )}
      <Modal
        opened={confirming}
        onClose={close}
        title={t('ADMIN_DECOMMISSION_TITLE', { name })}
        closeButtonProps={{ 'aria-label': t('CLOSE') }}
      >
        <Stack gap="sm">
          <Text size="sm">{t('ADMIN_DECOMMISSION_TEXT')}</Text>
          {decommissionNote && <Text size="sm">{decommissionNote}</Text>}
          <DialogActions error={mutation.error} onCancel={close}>
            <Button color="red" loading={mutation.isPending} onClick={() => mutation.mutate()}>
              {t('ADMIN_DECOMMISSION')}
            </Button>
          </DialogActions>
        </Stack>
      </Modal>
    </Group>
  );
}
