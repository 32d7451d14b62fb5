import { Alert, Button, Modal, Stack, Text, TextInput } from '@mantine/core';
import { IconAlertTriangle, IconKey } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CopySecretActions, DialogActions } from '../../../../../components/page-parts.tsx';
import { provisionDeviceToken } from '../api/admin-mutations.ts';

export interface TokenDialogProps {
  /** The terminal (database id) and its number, for the texts. */
  terminal: { id: number; terminal_id: string };
  opened: boolean;
  onClose: () => void;
}

/**
 * "Provision device token": warns that the terminal's current token stops working, asks, then shows the
 * new token once with a copy button. Closing forgets it; the server keeps only its hash.
 */
export function TokenDialog({ terminal, opened, onClose }: TokenDialogProps) {
  const { t } = useTranslation();
  const [token, setToken] = useState<string | null>(null);
  const mutation = useMutation({
    mutationFn: () => provisionDeviceToken(terminal.id),
    onSuccess: (answer) => setToken(answer.token),
  });
  const close = () => {
    setToken(null);
    mutation.reset();
    onClose();
  };

  return (
    <Modal
      opened={opened}
      onClose={close}
      title={t('ADMIN_TOKEN_TITLE', { terminal: terminal.terminal_id })}
      closeButtonProps={{ 'aria-label': t('CLOSE') }}
    >
      {token === null ? (
        <Stack gap="sm">
          <Alert
            color="yellow"
            variant="light"
            icon={<IconAlertTriangle />}
            title={t('ADMIN_TOKEN_WARNING_TITLE')}
          >
            {t('ADMIN_TOKEN_WARNING')}
          </Alert>
          <DialogActions error={mutation.error} onCancel={close}>
            <Button
              leftSection={<IconKey size={16} />}
              loading={mutation.isPending}
              onClick={() => mutation.mutate()}
            >
              {t('ADMIN_TOKEN_PROVISION')}
            </Button>
          </DialogActions>
        </Stack>
      ) : (
        <Stack gap="sm">
          <Text size="sm">{t('ADMIN_TOKEN_ONCE')}</Text>
          <TextInput
            label={t('ADMIN_TOKEN_LABEL')}
            value={token}
            readOnly
            onFocus={(e) => e.currentTarget.select()}
            styles={{ input: { fontFamily: 'monospace' } }}
            data-testid="device-token"
          />
          <CopySecretActions
            secret={token}
            copyLabel={t('ADMIN_TOKEN_COPY')}
            copiedLabel={t('ADMIN_TOKEN_COPIED')}
            doneLabel={t('ADMIN_DONE')}
            onDone={close}
          />
        </Stack>
      )}
    </Modal>
  );
}
