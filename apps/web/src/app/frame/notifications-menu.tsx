import { LOG_PATHS } from '@forecourt/contract/log-paths';
import { NOTIFICATIONS_DELAY_MS } from '@forecourt/contract/rules';
import { ActionIcon, Group, Indicator } from '@mantine/core';
import { IconBell, IconMail } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { onDemand, useOnDemandToggle } from '../../components/on-demand.tsx';
import { alertQueries, notificationScope } from '../../lib/api/alerts.ts';
import { pollWhileStreamDown } from '../../lib/api/live.ts';
import { useSession } from '../../lib/auth/session.ts';
import { useStore } from '../../lib/create-store.ts';
import { firstViewGate } from '../../lib/first-view-gate.ts';

/** The dropdown, with its floating code: fetched when the bell first opens (or the pointer comes near). */
const dropdownModule = onDemand(() => import('./notifications-dropdown.tsx'));

/** How many of the newest alerts the bell lists. */
const NOTIFICATION_COUNT = 20;

/** Hard-coded badge on the email icon (docs/product.md#page-frame). */
const MAIL_BADGE = 2;

/**
 * The bell with the notification count and the email icon with its badge; either opens the dropdown,
 * which lists alerts of the user's notification source, each linking to its alert log, and closes with X.
 */
export function NotificationsMenu() {
  const { t } = useTranslation();
  const { user } = useSession();
  const source = notificationScope(user);
  // The unacknowledged active alerts of the source (docs/product.md#alert-lifecycle): counted, the latest listed.
  const unacknowledged = { state: 'active', acknowledged: false } as const;
  const scope = source ?? { kind: 'agent' as const, id: 0 };
  // Not part of a dashboard's first view: asked for once its first reads have answered (lib/first-view-gate.ts).
  const gateOpen = useStore(firstViewGate);
  const query = useQuery({
    ...alertQueries.list(scope, { limit_to: NOTIFICATION_COUNT, ...unacknowledged, silenced: false }),
    enabled: source !== null && gateOpen,
    refetchInterval: pollWhileStreamDown(NOTIFICATIONS_DELAY_MS),
  });
  const counted = useQuery({
    ...alertQueries.count(scope, unacknowledged),
    enabled: source !== null && gateOpen,
    refetchInterval: pollWhileStreamDown(NOTIFICATIONS_DELAY_MS),
  });
  const items = source ? (query.data ?? []) : [];
  const count = source ? (counted.data?.count ?? items.length) : 0;
  const link = source
    ? `#/${source.kind}/${source.id}/${LOG_PATHS.alert.path}?state=active&acknowledged=false`
    : '#/';

  const {
    loaded: dropdown,
    opened,
    setOpened,
    button,
    anchored,
  } = useOnDemandToggle(dropdownModule, 'dialog');
  const iconButton = (label: string, icon: ReactNode) => (
    <ActionIcon
      variant="subtle"
      color="gray"
      size="lg"
      aria-label={label}
      aria-expanded={opened}
      aria-haspopup="dialog"
      onClick={button.onClick}
    >
      {icon}
    </ActionIcon>
  );

  return (
    <>
      <Group
        ref={button.ref}
        gap={4}
        wrap="nowrap"
        onPointerEnter={button.onPointerEnter}
        onFocus={button.onFocus}
      >
        <Indicator
          label={String(count)}
          size={18}
          color={count === 0 ? 'gray' : 'red'}
          offset={4}
          data-empty={count === 0 || undefined}
          className="fc-bell-count"
        >
          {iconButton(t('NOTIFICATIONS'), <IconBell size={20} />)}
        </Indicator>
        <Indicator label={String(MAIL_BADGE)} size={18} color="red" offset={4}>
          {iconButton(t('MESSAGES'), <IconMail size={20} />)}
        </Indicator>
      </Group>
      {dropdown && (
        <dropdown.NotificationsDropdown
          target={anchored.target}
          onChange={setOpened}
          {...{ opened, count, items, link }}
        />
      )}
    </>
  );
}
