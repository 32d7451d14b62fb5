import { Menu } from '@mantine/core';
import { IconDeviceTv, IconLogout, IconUser } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { LanguageMenuItems } from '../../components/language-menu-items.tsx';
import { Link } from '../../components/link.tsx';
import { type AnchoredProps, ElementTarget, useOpenAfterMount } from '../../components/on-demand.tsx';

/** Anchored to the user button (user-menu.tsx), which labels the menu. */
export interface UserMenuDropdownProps extends AnchoredProps {
  /** Where the Wall screen entry leads. */
  wallScreen: string;
}

/** The user menu's entries (user-menu.tsx), fetched when it first opens. */
export function UserMenuDropdown({ id, target, opened, onChange, wallScreen }: UserMenuDropdownProps) {
  const { t } = useTranslation();
  return (
    <Menu
      {...{ id, onChange }}
      opened={useOpenAfterMount(opened)}
      position="bottom-end"
      shadow="md"
      width={200}
    >
      <Menu.Target>
        <ElementTarget element={target} />
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Item component={Link} to="/profile" leftSection={<IconUser size={16} />}>
          {t('PROFILE')}
        </Menu.Item>
        <Menu.Item component={Link} to={wallScreen} leftSection={<IconDeviceTv size={16} />}>
          {t('WALL_SCREEN')}
        </Menu.Item>
        <Menu.Divider />
        <LanguageMenuItems />
        <Menu.Divider />
        <Menu.Item component={Link} to="/auth/logout" leftSection={<IconLogout size={16} />}>
          {t('LOG_OUT')}
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
