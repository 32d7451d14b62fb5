import { Alert, type AlertProps, List } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { translateMessage } from '../i18n/messages.ts';

export interface MessageAlertProps extends Omit<AlertProps, 'children'> {
  /** Contract or server messages, translated where the catalogue knows them. */
  messages: string[];
  'data-testid'?: string;
}

/** A light alert listing messages, one a line (a form's errors, its success messages). */
export function MessageAlert({ messages, ...alert }: MessageAlertProps) {
  const { t } = useTranslation();
  return (
    <Alert variant="light" {...alert}>
      <List size="sm" spacing={2}>
        {messages.map((m) => (
          <List.Item key={m}>{translateMessage(t, m)}</List.Item>
        ))}
      </List>
    </Alert>
  );
}
