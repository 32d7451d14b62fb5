import { Avatar, Menu, Text, UnstyledButton } from '@mantine/core';
import { IconLogout, IconUser } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { env } from '../../config/env.ts';
import { useSession } from '../../lib/auth/session.ts';

/** Avatar path from the user record is relative to the API base address. */
export function avatarUrl(path: string | null | undefined): string | undefined {
  if (!path) return undefined;
  if (/^(https?:|data:|blob:)/.test(path)) return path;
  return `${env.apiBase}${path.startsWith('/') ? path : `/${path}`}`;
}

export function UserMenu() {
  const { t } = useTranslation();
  const { user } = useSession();
  const name = user?.name || user?.username || '';
  return (
    <Menu position="bottom-end" shadow="md" width={200}>
      <Menu.Target>
        <UnstyledButton aria-label={t('USER_MENU')} className="fc-user-button">
          <Avatar
            src={avatarUrl(user?.avatar ?? user?.picture)}
            name={name}
            color="initials"
            radius="xl"
            size={34}
          />
          <Text size="sm" fw={600} visibleFrom="md" lineClamp={1} maw={140}>
            {name}
          </Text>
        </UnstyledButton>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Item component={Link} to="/profile" leftSection={<IconUser size={16} />}>
          {t('PROFILE')}
        </Menu.Item>
        <Menu.Item component={Link} to="/auth/logout" leftSection={<IconLogout size={16} />}>
          {t('LOG_OUT')}
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
