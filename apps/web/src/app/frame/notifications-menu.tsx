import { formatDateSafe } from '@forecourt/contract/formatters';
import { LOG_PATHS } from '@forecourt/contract/log-paths';
import { NOTIFICATIONS_DELAY_MS } from '@forecourt/contract/rules';
import {
  ActionIcon,
  Anchor,
  Badge,
  CloseButton,
  Group,
  Indicator,
  Popover,
  ScrollArea,
  Stack,
  Text,
} from '@mantine/core';
import { IconBell, IconMail } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SeverityBadge } from '../../components/alerts/alert-ack.tsx';
import { alertQueries, notificationScope } from '../../lib/api/alerts.ts';
import { pollWhileStreamDown } from '../../lib/api/live.ts';
import { useSession } from '../../lib/auth/session.ts';

/** How many of the newest alerts the bell lists. */
const NOTIFICATION_COUNT = 20;

/** Hard-coded badge on the email icon (docs/product.md#page-frame). */
const MAIL_BADGE = 2;

/**
 * The bell with the notification count and the email icon with its badge; either opens the dropdown,
 * which lists alerts of the user's notification source, each linking to its alert log, and closes with X.
 */
export function NotificationsMenu() {
  const { t, i18n } = useTranslation();
  const { user } = useSession();
  const [opened, setOpened] = useState(false);
  const source = notificationScope(user);
  // The unacknowledged active alerts of the source (docs/product.md#alert-lifecycle): counted, the latest listed.
  const unacknowledged = { state: 'active', acknowledged: false } as const;
  const scope = source ?? { kind: 'agent' as const, id: 0 };
  const query = useQuery({
    ...alertQueries.list(scope, { limit_to: NOTIFICATION_COUNT, ...unacknowledged }),
    enabled: source !== null,
    refetchInterval: pollWhileStreamDown(NOTIFICATIONS_DELAY_MS),
  });
  const counted = useQuery({
    ...alertQueries.count(scope, unacknowledged),
    enabled: source !== null,
    refetchInterval: pollWhileStreamDown(NOTIFICATIONS_DELAY_MS),
  });
  const items = source ? (query.data ?? []) : [];
  const count = source ? (counted.data?.count ?? items.length) : 0;
  const link = source
    ? `#/${source.kind}/${source.id}/${LOG_PATHS.alert.path}?state=active&acknowledged=false`
    : '#/';

  return (
    <Popover
      opened={opened}
      onChange={setOpened}
      position="bottom-end"
      shadow="md"
      withArrow
      trapFocus={false}
      withRoles={false}
      styles={{ dropdown: { width: 'min(calc(100vw - 16px), max(320px, 35%))', maxWidth: 485, padding: 0 } }}
    >
      <Popover.Target>
        <Group gap={4} wrap="nowrap">
          <Indicator
            label={String(count)}
            size={18}
            color={count === 0 ? 'gray' : 'red'}
            offset={4}
            data-empty={count === 0 || undefined}
            className="fc-bell-count"
          >
            <ActionIcon
              variant="subtle"
              color="gray"
              size="lg"
              aria-label={t('NOTIFICATIONS')}
              aria-expanded={opened}
              aria-haspopup="dialog"
              onClick={() => setOpened((o) => !o)}
            >
              <IconBell size={20} />
            </ActionIcon>
          </Indicator>
          <Indicator label={String(MAIL_BADGE)} size={18} color="red" offset={4}>
            <ActionIcon
              variant="subtle"
              color="gray"
              size="lg"
              aria-label={t('MESSAGES')}
              aria-expanded={opened}
              aria-haspopup="dialog"
              onClick={() => setOpened((o) => !o)}
            >
              <IconMail size={20} />
            </ActionIcon>
          </Indicator>
        </Group>
      </Popover.Target>
      <Popover.Dropdown role="dialog" aria-label={t('NOTIFICATIONS')}>
        <Group justify="space-between" px="md" py="sm" className="fc-notifications-head">
          <Group gap="xs">
            <Text fw={700}>{t('NOTIFICATIONS')}</Text>
            <Badge size="sm" variant="light" color={count === 0 ? 'gray' : 'red'}>
              {count}
            </Badge>
          </Group>
          <CloseButton aria-label={t('CLOSE_NOTIFICATIONS')} onClick={() => setOpened(false)} />
        </Group>
        {count === 0 ? (
          <Text c="dimmed" ta="center" py="lg" px="md">
            {t('NO_NOTIFICATIONS')}
          </Text>
        ) : (
          <ScrollArea.Autosize mah={360} type="auto">
            <Stack gap={0} component="ul" className="fc-notification-list" aria-label={t('NOTIFICATIONS')}>
              {items.map((item) => (
                <li key={item.id}>
                  <Anchor
                    href={link}
                    className="fc-notification"
                    underline="never"
                    onClick={() => setOpened(false)}
                  >
                    <Group gap={6} wrap="nowrap" align="flex-start">
                      <SeverityBadge severity={item.severity} />
                      <Text size="sm" lineClamp={2} c="var(--mantine-color-text)">
                        {item.text}
                      </Text>
                    </Group>
                    <Text size="xs" c="dimmed">
                      {formatDateSafe(item.started_at, (d) => d.toLocaleString(i18n.language))}
                    </Text>
                  </Anchor>
                </li>
              ))}
            </Stack>
          </ScrollArea.Autosize>
        )}
      </Popover.Dropdown>
    </Popover>
  );
}
