import {
  isTag,
  TARGET_SCOPE_KINDS,
  type TargetInput,
  type TargetScopeKind,
  uniqueTags,
} from '@forecourt/contract/targets';
import { userKind } from '@forecourt/contract/users';
import { Group, Input, Select, SimpleGrid, Stack, TagsInput, Text } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useQueries, useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { targetPreviewQuery } from '../../../../lib/api/rules.ts';
import { siteQueries } from '../../../../lib/api/sites.ts';
import { useSession } from '../../../../lib/auth/session.ts';
import { terminalPageQueries } from '../terminal/terminal-queries.ts';

/** Typing settles before the target's reach is asked for. */
const PREVIEW_DELAY_MS = 300;

export interface SiteOption {
  id: number;
  title: string;
  number?: string;
}

/** The scope kinds a user may aim at: its own level and everything below it. */
export function scopeKindsFor(kind: ReturnType<typeof userKind>): TargetScopeKind[] {
  if (kind === 'agent') return [...TARGET_SCOPE_KINDS];
  if (kind === 'company') return ['company', 'site', 'terminal'];
  return ['site', 'terminal'];
}

/** The sites a user reaches: the agent's, its companies' or its own. */
export function useReachableSites(): { sites: SiteOption[]; loading: boolean } {
  const { user } = useSession();
  const kind = userKind(user);
  const fleet =
    kind === 'agent' && user?.agent
      ? [{ kind: 'agent' as const, id: user.agent }]
      : kind === 'company'
        ? (user?.companies ?? []).map((c) => ({ kind: 'company' as const, id: c.id }))
        : [];
  const lists = useQueries({ queries: fleet.map((scope) => siteQueries.list(scope)) });
  const loading = lists.some((q) => q.isPending);
  let sites: SiteOption[];
  if (kind === 'site')
    sites = (user?.sites ?? []).map((s) => ({ id: s.id, title: s.title, number: s.number }));
  else {
    const seen = new Map<number, SiteOption>();
    for (const q of lists)
      for (const s of q.data ?? []) seen.set(s.id, { id: s.id, title: s.title, number: s.number });
    sites = [...seen.values()].sort((a, b) => a.title.localeCompare(b.title));
  }
  return { sites, loading };
}

/** A new rule or window aims at the user's own scope: the agent's fleet, its first company, its first site. */
export function defaultTarget(user: ReturnType<typeof useSession>['user']): TargetInput {
  const kind = userKind(user);
  if (kind === 'agent') return { scope: { kind: 'agent', id: user?.agent ?? 0 }, tags: [] };
  if (kind === 'company') return { scope: { kind: 'company', id: user?.companies?.[0]?.id ?? 0 }, tags: [] };
  return { scope: { kind: 'site', id: user?.sites?.[0]?.id ?? 0 }, tags: [] };
}

export const siteLabel = (s: SiteOption) => (s.number ? `${s.title} (${s.number})` : s.title);

export interface TargetPickerProps {
  value: TargetInput;
  onChange: (value: TargetInput) => void;
  /** The field's message (a 400 naming `target`). */
  error?: string;
  /** The site of a terminal target, when the caller knows it. */
  siteId?: number;
}

/**
 * Which terminals something aims at (docs/targets.md): a scope (the agent, a company, a site or one terminal of a
 * site) and tags they must all carry, with how many terminals that reaches now (`POST /api/targets/preview/`).
 */
export function TargetPicker({ value, onChange, error, siteId }: TargetPickerProps) {
  const { t } = useTranslation();
  const { user } = useSession();
  const kinds = scopeKindsFor(userKind(user));
  const { sites } = useReachableSites();
  const scope = value.scope;
  const tags = (value.tags ?? []) as string[];
  const [terminalSite, setTerminalSite] = useState<number | undefined>(siteId);
  const [badTag, setBadTag] = useState<string | null>(null);

  // The site of a terminal target that came without it: the preview names it.
  const located = useQuery({
    ...targetPreviewQuery({ scope, tags: [] }, 1),
    enabled: scope.kind === 'terminal' && scope.id > 0 && terminalSite === undefined,
  });
  useEffect(() => {
    const found = located.data?.terminals[0]?.site_id;
    if (found && terminalSite === undefined) setTerminalSite(found);
  }, [located.data, terminalSite]);

  const terminals = useQuery({
    ...terminalPageQueries.siteTerminals(terminalSite ?? 0),
    enabled: scope.kind === 'terminal' && terminalSite !== undefined,
  });

  const [settled] = useDebouncedValue(value, PREVIEW_DELAY_MS);
  const complete = settled.scope.id > 0;
  const preview = useQuery({ ...targetPreviewQuery(settled, 0), enabled: complete });

  const set = (next: Partial<TargetInput['scope']>) => onChange({ scope: { ...scope, ...next }, tags });
  const kindOptions = kinds.map((k) => ({ value: k, label: t(`TARGET_KIND_${k.toUpperCase()}`) }));
  const companyOptions = (user?.companies ?? []).map((c) => ({ value: String(c.id), label: c.name }));
  const siteOptions = sites.map((s) => ({ value: String(s.id), label: siteLabel(s) }));
  const terminalOptions = (terminals.data ?? []).map((x) => ({
    value: String(x.id),
    label: x.terminal_id,
  }));

  const onKind = (kind: TargetScopeKind) => {
    if (kind === scope.kind) return;
    const id =
      kind === 'agent'
        ? (user?.agent ?? 0)
        : kind === 'company' && companyOptions.length === 1
          ? Number(companyOptions[0]!.value)
          : kind === 'site' && siteOptions.length === 1
            ? Number(siteOptions[0]!.value)
            : 0;
    onChange({ scope: { kind, id }, tags });
  };

  const reach = !complete
    ? t('TARGET_PICK_SCOPE')
    : preview.isError
      ? t('TARGET_REACH_FAILED')
      : preview.data
        ? t('TARGET_REACHES', { count: preview.data.count })
        : t('TARGET_COUNTING');

  return (
    <Input.Wrapper label={t('TARGET')} error={error} required>
      <Stack gap="xs" mt={4}>
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="xs">
          <Select
            label={t('TARGET_KIND')}
            data={kindOptions}
            value={scope.kind}
            allowDeselect={false}
            onChange={(v) => v && onKind(v as TargetScopeKind)}
          />
          {scope.kind === 'agent' && (
            <Stack justify="flex-end">
              <Text size="sm" c="dimmed" pb={6}>
                {t('TARGET_WHOLE_FLEET')}
              </Text>
            </Stack>
          )}
          {scope.kind === 'company' && (
            <Select
              label={t('TARGET_COMPANY')}
              data={companyOptions}
              value={scope.id ? String(scope.id) : null}
              searchable
              onChange={(v) => set({ id: v ? Number(v) : 0 })}
            />
          )}
          {(scope.kind === 'site' || scope.kind === 'terminal') && (
            <Select
              label={t('TARGET_SITE')}
              data={siteOptions}
              value={
                scope.kind === 'site'
                  ? scope.id
                    ? String(scope.id)
                    : null
                  : terminalSite
                    ? String(terminalSite)
                    : null
              }
              searchable
              onChange={(v) => {
                const id = v ? Number(v) : 0;
                if (scope.kind === 'site') set({ id });
                else {
                  setTerminalSite(id || undefined);
                  set({ id: 0 });
                }
              }}
            />
          )}
        </SimpleGrid>
        {scope.kind === 'terminal' && (
          <Select
            label={t('TARGET_TERMINAL')}
            data={terminalOptions}
            value={scope.id ? String(scope.id) : null}
            disabled={terminalSite === undefined}
            searchable
            onChange={(v) => set({ id: v ? Number(v) : 0 })}
          />
        )}
        <TagsInput
          label={t('TARGET_TAGS')}
          description={t('TARGET_TAGS_HINT')}
          value={tags}
          clearable
          error={badTag ? t('TARGET_TAG_INVALID', { tag: badTag }) : undefined}
          onChange={(typed) => {
            const next = uniqueTags(typed);
            const bad = next.find((tag) => !isTag(tag));
            setBadTag(bad ?? null);
            onChange({ scope, tags: next.filter(isTag) });
          }}
        />
        <Group gap={6}>
          <Text size="sm" fw={500} aria-live="polite" data-testid="target-reach">
            {reach}
          </Text>
        </Group>
      </Stack>
    </Input.Wrapper>
  );
}
