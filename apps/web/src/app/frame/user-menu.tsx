import { userKind } from '@forecourt/contract/users';
import { Avatar, Text, UnstyledButton } from '@mantine/core';
import { IconUser } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { onDemand, useOnDemandToggle } from '../../components/on-demand.tsx';
import { env } from '../../config/env.ts';
import { paths } from '../../config/paths.ts';
import { siteQueries } from '../../lib/api/sites.ts';
import { useSession } from '../../lib/auth/session.ts';
import { isDashboardPath } from './kiosk.ts';

/** The menu itself, with its floating code: fetched when it first opens (or the pointer comes near). */
const dropdownModule = onDemand(() => import('./user-menu-dropdown.tsx'));

/** Avatar path from the user record is relative to the API base address. */
export function avatarUrl(path: string | null | undefined): string | undefined {
  if (!path) return undefined;
  if (/^(https?:|data:|blob:)/.test(path)) return path;
  return `${env.apiBase}${path.startsWith('/') ? path : `/${path}`}`;
}

/**
 * Where the "Wall screen" entry leads: the current dashboard in kiosk mode, or from any other page the user's
 * own dashboard (the agent's, the first company's, the first site's).
 */
function useWallScreenLink(): string {
  const { pathname } = useLocation();
  const { user } = useSession();
  const kind = userKind(user);
  const onDashboard = isDashboardPath(pathname);
  const firstSite = user?.sites[0]?.id ?? 0;
  const site = useQuery({ ...siteQueries.detail(firstSite), enabled: !onDashboard && kind === 'site' });
  let target: string = paths.agentDashboard;
  if (onDashboard) target = pathname;
  else if (kind === 'company' && user) target = paths.companyDashboard(user.companies[0]!.id);
  else if (kind === 'site' && site.data) target = paths.siteDashboard(site.data.company_id, firstSite);
  return `${target}?kiosk=1`;
}

export function UserMenu() {
  const { t } = useTranslation();
  const { user } = useSession();
  const wallScreen = useWallScreenLink();
  const name = user?.name || user?.username || '';
  const { loaded: dropdown, opened, button, anchored } = useOnDemandToggle(dropdownModule, 'menu');
  return (
    <>
      <UnstyledButton
        {...button}
        // The name shown beside the avatar is part of the button's name (WCAG 2.5.3).
        aria-label={name ? t('USER_MENU_OF', { name }) : t('USER_MENU')}
        className="fc-user-button"
        data-expanded={opened || undefined}
      >
        <Avatar
          src={avatarUrl(user?.avatar ?? user?.picture)}
          name={name}
          color="initials"
          radius="xl"
          size={34}
        >
          {/* An icon rather than initials: text in the button that its name does not hold fails WCAG 2.5.3. */}
          <IconUser size={18} aria-hidden />
        </Avatar>
        <Text size="sm" fw={600} visibleFrom="md" lineClamp={1} maw={140}>
          {name}
        </Text>
      </UnstyledButton>
      {dropdown && <dropdown.UserMenuDropdown {...anchored} wallScreen={wallScreen} />}
    </>
  );
}
