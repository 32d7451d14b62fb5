import { Alert, List, Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { translateMessage } from '../i18n/messages.ts';

/** The alerts themselves (form-alerts.tsx loads them when there is something to say). */
export default function FormAlertList({ errors, messages }: { errors: string[]; messages: string[] }) {
  const { t } = useTranslation();
  const lists = [
    { lines: errors, color: 'red', title: t('OH_SNAP'), role: 'alert', testId: 'auth-errors' },
    { lines: messages, color: 'teal', title: t('HOORAY'), role: 'status', testId: 'auth-messages' },
  ];
  return (
    <Stack gap="sm">
      {lists.map(
        ({ lines, color, title, role, testId }) =>
          lines.length > 0 && (
            <Alert key={testId} color={color} variant="light" title={title} role={role} data-testid={testId}>
              <List size="sm" spacing={2}>
                {lines.map((line) => (
                  <List.Item key={line}>{translateMessage(t, line)}</List.Item>
                ))}
              </List>
            </Alert>
          ),
      )}
    </Stack>
  );
}
