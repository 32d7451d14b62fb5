import { ActionIcon, Anchor, Burger, Group } from '@mantine/core';
import { IconSettings } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from '../../components/link.tsx';
import { Logo } from '../../components/logo.tsx';
import { onDemand, preload } from '../../components/on-demand.tsx';
import { env } from '../../config/env.ts';
import { HeaderSearch } from './header-search.tsx';
import { LiveIndicator } from './live-indicator.tsx';
import { NotificationsMenu } from './notifications-menu.tsx';
import { UserMenu } from './user-menu.tsx';

/** The settings drawer (settings-sidebar.tsx): fetched when it first opens (or the pointer comes near). */
export const settingsModule = onDemand(() => import('./settings-sidebar.tsx'));

export interface FrameHeaderProps {
  /** Whether the menu sidebar shows (drives the toggle's pressed state). */
  sidebarOpen: boolean;
  onToggleSidebar: () => void;
  settingsOpen: boolean;
  onToggleSettings: () => void;
}

export function FrameHeader(props: FrameHeaderProps) {
  const { t } = useTranslation();
  return (
    <Group h="100%" px="md" justify="space-between" wrap="nowrap" gap="xs" className="fc-header">
      <Group gap="xs" wrap="nowrap">
        <Burger
          opened={props.sidebarOpen}
          onClick={props.onToggleSidebar}
          size="sm"
          aria-label={t('TOGGLE_SIDEBAR')}
          aria-expanded={props.sidebarOpen}
        />
        <Anchor
          component={Link}
          to="/agent/dashboard"
          underline="never"
          c="inherit"
          aria-label={t('HOME_LINK', { name: env.companyLabel })}
        >
          <Logo withLabel />
        </Anchor>
      </Group>
      <Group gap={6} wrap="nowrap">
        <LiveIndicator />
        <HeaderSearch />
        <NotificationsMenu />
        <ActionIcon
          variant="subtle"
          color="gray"
          size="lg"
          aria-label={t('SETTINGS')}
          aria-expanded={props.settingsOpen}
          onClick={props.onToggleSettings}
          onPointerEnter={() => preload(settingsModule)}
          onFocus={() => preload(settingsModule)}
        >
          <IconSettings size={20} />
        </ActionIcon>
        <UserMenu />
      </Group>
    </Group>
  );
}
