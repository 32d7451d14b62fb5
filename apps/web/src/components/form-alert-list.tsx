import { Alert, List, Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { translateMessage } from '../i18n/messages.ts';

/** The alerts themselves (form-alerts.tsx loads them when there is something to say). */
export default function FormAlertList({ errors, messages }: { errors: string[]; messages: string[] }) {
  const { t } = useTranslation();
  return (
    <Stack gap="sm">
      {errors.length > 0 && (
        <Alert color="red" variant="light" title={t('OH_SNAP')} role="alert" data-testid="auth-errors">
          <List size="sm" spacing={2}>
            {errors.map((e) => (
              <List.Item key={e}>{translateMessage(t, e)}</List.Item>
            ))}
          </List>
        </Alert>
      )}
      {messages.length > 0 && (
        <Alert color="teal" variant="light" title={t('HOORAY')} role="status" data-testid="auth-messages">
          <List size="sm" spacing={2}>
            {messages.map((m) => (
              <List.Item key={m}>{translateMessage(t, m)}</List.Item>
            ))}
          </List>
        </Alert>
      )}
    </Stack>
  );
}
