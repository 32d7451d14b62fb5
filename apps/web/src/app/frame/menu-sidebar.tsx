import { Box, Button, NavLink, Stack } from '@mantine/core';
import {
  IconAlertTriangle,
  IconBell,
  IconComponents,
  IconDashboard,
  IconHeart,
  IconListDetails,
  IconPackage,
  IconReportAnalytics,
  IconSettings,
  IconTool,
  IconUserCircle,
} from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import './menu-sidebar.css';
import { useLocation } from 'react-router';
import { Link } from '../../components/link.tsx';
import { notificationScope } from '../../lib/api/alerts.ts';
import { useSession } from '../../lib/auth/session.ts';
import { type MenuItem, menuFor } from './menu-items.ts';

const ICONS = {
  dashboard: IconDashboard,
  profile: IconUserCircle,
  notifications: IconBell,
  logs: IconListDetails,
  ui: IconComponents,
  admin: IconSettings,
  reports: IconReportAnalytics,
  software: IconPackage,
  rules: IconAlertTriangle,
  maintenance: IconTool,
};

/** Entries of the menu's first level draw their icon; those inside a group do not. */
const TOP_LEVEL_ICONS = new Set<MenuItem['icon']>([
  'dashboard',
  'profile',
  'notifications',
  'reports',
  'rules',
  'maintenance',
  'software',
]);

export interface MenuSidebarProps {
  /** Called after a menu item is picked (the frame collapses the sidebar on small screens). */
  onPick?: () => void;
  /** Show the 'Support Us' button in the sidebar header (two- and three-column layouts). @default false */
  withSupport?: boolean;
}

export function MenuSidebar({ onPick, withSupport = false }: MenuSidebarProps) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const [openGroups, setOpenGroups] = useState<Record<string, boolean>>({});
  const { user } = useSession();
  const scope = notificationScope(user);
  const scopeKind = scope?.kind;
  const scopeId = scope?.id;
  const items = useMemo(
    () => menuFor(scopeKind && scopeId ? { kind: scopeKind, id: scopeId } : null),
    [scopeKind, scopeId],
  );

  const render = (item: MenuItem) => {
    const Icon = ICONS[item.icon];
    if (item.children) {
      const opened = openGroups[item.label] ?? item.children.some((c) => c.to && pathname.startsWith(c.to));
      return (
        <NavLink
          key={item.label}
          component="button"
          type="button"
          aria-expanded={opened}
          label={t(item.label)}
          leftSection={<Icon size={18} />}
          opened={opened}
          onChange={(next) => setOpenGroups((g) => ({ ...g, [item.label]: next }))}
          childrenOffset={28}
        >
          {item.children.map(render)}
        </NavLink>
      );
    }
    return (
      <NavLink
        key={item.label}
        component={Link}
        to={item.to ?? '/'}
        label={t(item.label)}
        leftSection={TOP_LEVEL_ICONS.has(item.icon) ? <Icon size={18} /> : undefined}
        active={item.to ? pathname === item.to || pathname.startsWith(`${item.to}/`) : false}
        onClick={onPick}
      />
    );
  };

  return (
    <Stack gap={0} h="100%">
      {withSupport && (
        <div className="fc-sidebar-header">
          <Button
            component="a"
            href="https://github.com/"
            target="_blank"
            rel="noopener noreferrer"
            fullWidth
            variant="gradient"
            gradient={{ from: 'brand.4', to: 'brand.7', deg: 135 }}
            leftSection={<IconHeart size={16} />}
          >
            {t('SUPPORT_US')}
          </Button>
        </div>
      )}
      {/* Native scrolling: Mantine's ScrollArea would bring the floating-ui code into the first load. */}
      <Box flex={1} className="fc-menu-scroll">
        <nav aria-label={t('MAIN_MENU')}>{items.map(render)}</nav>
      </Box>
    </Stack>
  );
}
