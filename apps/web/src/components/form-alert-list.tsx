import { Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { MessageAlert } from './message-alert.tsx';

/** The alerts themselves (form-alerts.tsx loads them when there is something to say). */
export default function FormAlertList({ errors, messages }: { errors: string[]; messages: string[] }) {
  const { t } = useTranslation();
  return (
    <Stack gap="sm">
      {errors.length > 0 && (
        <MessageAlert
          messages={errors}
          color="red"
          title={t('OH_SNAP')}
          role="alert"
          data-testid="auth-errors"
        />
      )}
      {messages.length > 0 && (
        <MessageAlert
          messages={messages}
          color="teal"
          title={t('HOORAY')}
          role="status"
          data-testid="auth-messages"
        />
      )}
    </Stack>
  );
}
