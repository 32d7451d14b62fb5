import { Alert, List, Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { translateMessage } from '../i18n/messages.ts';

export interface FormAlertsProps {
  errors: string[];
  messages: string[];
  /** While a request is in flight neither alert shows. */
  submitting: boolean;
}

/** The red 'Oh snap!' alert listing errors and the green 'Hooray!' alert listing messages. */
export function FormAlerts({ errors, messages, submitting }: FormAlertsProps) {
  const { t } = useTranslation();
  if (submitting || (!errors.length && !messages.length)) return null;
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
