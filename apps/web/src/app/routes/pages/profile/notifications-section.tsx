import { SEVERITIES } from '@forecourt/contract/events';
import type { NotificationPrefs } from '@forecourt/contract/users';
import { Button, Card, Group, NativeSelect, Stack, Text, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { notificationPrefsQuery, saveNotificationPrefs } from '../../../../lib/api/alerts.ts';
import { errorText } from '../../../../lib/api-client.ts';

const OFF = 'off';

/** Alert mail: from which severity up, or none (docs/product.md#alert-mail). */
export function NotificationsSection() {
  const { t } = useTranslation();
  const client = useQueryClient();
  const query = useQuery(notificationPrefsQuery());
  const [value, setValue] = useState<string>(OFF);
  useEffect(() => {
    if (query.data) setValue(query.data.email_min_severity ?? OFF);
  }, [query.data]);
  const save = useMutation({
    mutationFn: (prefs: NotificationPrefs) => saveNotificationPrefs(prefs),
    onSuccess: (prefs) => client.setQueryData(notificationPrefsQuery().queryKey, prefs),
  });
  const saved = query.data?.email_min_severity ?? OFF;
  return (
    <Card withBorder radius="md" padding="lg">
      <form
        aria-label={t('NOTIFICATIONS_SETTINGS')}
        onSubmit={(e) => {
          e.preventDefault();
          save.mutate({
            email_min_severity: value === OFF ? null : (value as NotificationPrefs['email_min_severity']),
          });
        }}
      >
        <Stack gap="sm">
          <Title order={2} fz="h4">
            {t('NOTIFICATIONS_SETTINGS')}
          </Title>
          <NativeSelect
            label={t('EMAIL_MIN_SEVERITY')}
            data={[
              { value: OFF, label: t('EMAIL_OFF') },
              ...SEVERITIES.map((s) => ({ value: s, label: t(`SEVERITY_${s.toUpperCase()}`) })),
            ]}
            value={value}
            onChange={(e) => setValue(e.currentTarget.value)}
            disabled={query.isPending}
          />
          <Text size="xs" c="dimmed">
            {t('NOTIFICATIONS_HELP')}
          </Text>
          {save.isError && (
            <Text size="sm" c="red" role="alert">
              {errorText(save.error)}
            </Text>
          )}
          {save.isSuccess && value === saved && (
            <Text size="sm" c="teal" role="status">
              {t('NOTIFICATIONS_SAVED')}
            </Text>
          )}
          <Group justify="flex-end">
            <Button type="submit" loading={save.isPending} disabled={query.isPending || value === saved}>
              {t('SAVE')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Card>
  );
}
