import type { TargetInput } from '@forecourt/contract/targets';
import { Group, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { TagBadges } from '../../../../components/tags/tag-badges.tsx';
import { targetPreviewQuery } from '../../../../lib/api/rules.ts';
import { useSession } from '../../../../lib/auth/session.ts';
import { siteLabel, useReachableSites } from './target-picker.tsx';

/** The site a target lies in, when it lies in one: a site's own id, a terminal's site (asked of the preview). */
export function useTargetSite(target: TargetInput): number | undefined {
  const terminal = useQuery({
    ...targetPreviewQuery({ scope: target.scope, tags: [] }, 1),
    enabled: target.scope.kind === 'terminal',
    staleTime: 5 * 60_000,
  });
  if (target.scope.kind === 'site') return target.scope.id;
  if (target.scope.kind === 'terminal') return terminal.data?.terminals[0]?.site_id;
  return undefined;
}

/** A target's scope in words: the fleet, a company, a site, or a terminal and its site. */
export function useScopeText(target: TargetInput): string {
  const { t } = useTranslation();
  const { user } = useSession();
  const { sites } = useReachableSites();
  const { kind, id } = target.scope;
  const terminal = useQuery({
    ...targetPreviewQuery({ scope: target.scope, tags: [] }, 1),
    enabled: kind === 'terminal',
    staleTime: 5 * 60_000,
  });
  const site = (siteId: number | undefined) => {
    const found = sites.find((s) => s.id === siteId);
    return found ? siteLabel(found) : t('TARGET_SITE_ID', { id: siteId });
  };
  if (kind === 'agent') return t('TARGET_WHOLE_FLEET');
  if (kind === 'company')
    return user?.companies?.find((c) => c.id === id)?.name ?? t('TARGET_COMPANY_ID', { id });
  if (kind === 'site') return site(id);
  const found = terminal.data?.terminals[0];
  return found
    ? t('TARGET_TERMINAL_AT', { number: found.terminal_id, site: found.site_title })
    : t('TARGET_TERMINAL_ID', { id });
}

/** A target in words: its scope, then its tags. */
export function TargetLabel({ target }: { target: TargetInput }) {
  const text = useScopeText(target);
  const tags = (target.tags ?? []) as string[];
  return (
    <Group gap={6} wrap="wrap">
      <Text size="sm">{text}</Text>
      {tags.length > 0 && <TagBadges tags={tags} />}
    </Group>
  );
}
