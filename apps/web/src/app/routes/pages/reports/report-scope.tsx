import type { ScopeKind } from '@forecourt/contract/scope';
import { Select } from '@mantine/core';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { notificationScope } from '../../../../lib/api/alerts.ts';
import { useSession } from '../../../../lib/auth/session.ts';
import type { Scope } from '../../../../lib/scope.ts';
import { siteLabel, useReachableSites } from '../targets/target-picker.tsx';

/** Options of the picker shown at once: typing narrows thousands of sites down. */
const SHOWN_OPTIONS = 60;

const KINDS: ScopeKind[] = ['agent', 'company', 'site'];

/** `agent:1`, `company:5`, `site:12`: a scope as the page's `?scope=` parameter and the picker's value. */
export const scopeParam = (scope: Scope) => `${scope.kind}:${scope.id}`;

export function parseScopeParam(raw: string | null): Scope | null {
  const m = /^(agent|company|site):([1-9]\d{0,9})$/.exec(raw ?? '');
  if (!m || !KINDS.includes(m[1] as ScopeKind)) return null;
  return { kind: m[1] as ScopeKind, id: Number(m[2]) };
}

/**
 * The scope the Reports page reports on: `?scope=` when the user reaches it (its agent, one of its companies, one of
 * the sites it reaches), else its own scope (the agent, its first company, its first site). Picking one writes it
 * into the URL, so the link shows the same report to whoever may read it.
 */
export function useReportScope() {
  const { t } = useTranslation();
  const { user } = useSession();
  const own = notificationScope(user);
  const [params, setParams] = useSearchParams();
  const { sites, loading } = useReachableSites();
  const wanted = parseScopeParam(params.get('scope'));

  const options = useMemo(() => {
    const groups: Array<{ group: string; items: Array<{ value: string; label: string }> }> = [];
    if (user?.agent) {
      groups.push({
        group: t('REPORTS_SCOPE_FLEET'),
        items: [
          { value: scopeParam({ kind: 'agent', id: user.agent }), label: t('REPORTS_SCOPE_WHOLE_FLEET') },
        ],
      });
    }
    const companies = (user?.companies ?? [])
      .map((c) => ({ value: scopeParam({ kind: 'company', id: c.id }), label: c.name }))
      .sort((a, b) => a.label.localeCompare(b.label));
    if (companies.length) groups.push({ group: t('REPORTS_SCOPE_COMPANIES'), items: companies });
    const siteItems = sites.map((s) => ({
      value: scopeParam({ kind: 'site', id: s.id }),
      label: siteLabel(s),
    }));
    if (siteItems.length) groups.push({ group: t('REPORTS_SCOPE_SITES'), items: siteItems });
    return groups;
  }, [user, sites, t]);

  const reachable = (s: Scope) => {
    if (s.kind === 'agent') return s.id === user?.agent;
    if (s.kind === 'company') return (user?.companies ?? []).some((c) => c.id === s.id);
    // A site: among those the user reaches (while they load, the server answers for it).
    return loading || sites.some((x) => x.id === s.id);
  };
  const scope = wanted && reachable(wanted) ? wanted : own;

  const setScope = (next: Scope) =>
    setParams(
      (current) => {
        const out = new URLSearchParams(current);
        out.set('scope', scopeParam(next));
        return out;
      },
      { replace: false },
    );
  return { scope, setScope, options };
}

/** The searchable picker of a report's scope: the whole fleet, a company or a site the user reaches. */
export function ReportScopeSelect({
  scope,
  options,
  onChange,
}: {
  scope: Scope;
  options: ReturnType<typeof useReportScope>['options'];
  onChange: (scope: Scope) => void;
}) {
  const { t } = useTranslation();
  if (options.reduce((n, g) => n + g.items.length, 0) <= 1) return null;
  return (
    <Select
      label={t('REPORTS_SCOPE')}
      data={options}
      value={scopeParam(scope)}
      onChange={(v) => {
        const next = parseScopeParam(v);
        if (next) onChange(next);
      }}
      searchable
      allowDeselect={false}
      limit={SHOWN_OPTIONS}
      nothingFoundMessage={t('REPORTS_SCOPE_NONE_FOUND')}
      w={{ base: '100%', xs: 300 }}
      comboboxProps={{ withinPortal: true }}
    />
  );
}
