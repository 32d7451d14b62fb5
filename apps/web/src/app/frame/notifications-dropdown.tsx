import type { Alert } from '@forecourt/contract/fleet';
import { dateFormat, formatDateSafe } from '@forecourt/contract/formatters';
import { Anchor, Badge, CloseButton, Group, Popover, ScrollArea, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { SeverityBadge } from '../../components/alerts/alert-ack.tsx';
import { ElementTarget, useOpenAfterMount } from '../../components/on-demand.tsx';

export interface NotificationsDropdownProps {
  /** The bell and the email icon: the dropdown opens under them, and a click on them is not 'outside'. */
  target: HTMLElement | null;
  opened: boolean;
  onChange: (opened: boolean) => void;
  count: number;
  items: readonly Pick<Alert, 'id' | 'severity' | 'text' | 'started_at'>[];
  /** The alert log of the notification source. */
  link: string;
}

/** The bell's dropdown (notifications-menu.tsx), fetched when it first opens. */
export function NotificationsDropdown({
  target,
  opened,
  onChange,
  count,
  items,
  link,
}: NotificationsDropdownProps) {
  const { t } = useTranslation();
  return (
    <Popover
      opened={useOpenAfterMount(opened)}
      onChange={onChange}
      position="bottom-end"
      shadow="md"
      withArrow
      trapFocus={false}
      withRoles={false}
      styles={{ dropdown: { width: 'min(calc(100vw - 16px), max(320px, 35%))', maxWidth: 485, padding: 0 } }}
    >
      <Popover.Target>
        <ElementTarget element={target} />
      </Popover.Target>
      <Popover.Dropdown role="dialog" aria-label={t('NOTIFICATIONS')}>
        <Group justify="space-between" px="md" py="sm" className="fc-notifications-head">
          <Group gap="xs">
            <Text fw={700}>{t('NOTIFICATIONS')}</Text>
            <Badge size="sm" variant="light" color={count === 0 ? 'gray' : 'red'}>
              {count}
            </Badge>
          </Group>
          <CloseButton aria-label={t('CLOSE_NOTIFICATIONS')} onClick={() => onChange(false)} />
        </Group>
        {count === 0 ? (
          <Text c="dimmed" ta="center" py="lg" px="md">
            {t('NO_NOTIFICATIONS')}
          </Text>
        ) : (
          <NotificationList items={items} link={link} onPick={() => onChange(false)} />
        )}
      </Popover.Dropdown>
    </Popover>
  );
}

/** Rendered only while the dropdown is open; one date format for the whole list. */
function NotificationList({
  items,
  link,
  onPick,
}: {
  items: NotificationsDropdownProps['items'];
  link: string;
  onPick: () => void;
}) {
  const { t, i18n } = useTranslation();
  // What Date#toLocaleString(language) writes, built once instead of per item.
  const format = dateFormat(i18n.language, 'numeric');
  return (
    <ScrollArea.Autosize mah={360} type="auto">
      <Stack gap={0} component="ul" className="fc-notification-list" aria-label={t('NOTIFICATIONS')}>
        {items.map((item) => (
          <li key={item.id}>
            <Anchor href={link} className="fc-notification" underline="never" onClick={onPick}>
              <Group gap={6} wrap="nowrap" align="flex-start">
                <SeverityBadge severity={item.severity} />
                <Text size="sm" lineClamp={2} c="var(--mantine-color-text)">
                  {item.text}
                </Text>
              </Group>
              <Text size="xs" c="dimmed">
                {formatDateSafe(item.started_at, (d) => format.format(d))}
              </Text>
            </Anchor>
          </li>
        ))}
      </Stack>
    </ScrollArea.Autosize>
  );
}
