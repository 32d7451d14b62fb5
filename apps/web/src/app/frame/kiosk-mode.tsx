import { type CurrentUser, userKind } from '@forecourt/contract/users';
import { useQueries } from '@tanstack/react-query';
import { useEffect, useMemo, useRef } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { paths } from '../../config/paths.ts';
import { siteQueries } from '../../lib/api/sites.ts';
import { sessionStore, useSession } from '../../lib/auth/session.ts';
import { refreshToken } from '../../lib/auth/session-calls.ts';
import type { KioskMode } from './kiosk.ts';

/**
 * What a wall screen does while it shows (docs/product.md#wall-screens): it keeps its session alive and, with
 * `rotate`, moves through the dashboards. Loaded on demand by the frame when `?kiosk=1` is on, so an ordinary
 * dashboard does not carry it.
 */

/** How often a wall screen trades its token for a fresh one (tokens live 12 h, or 30 days after remember-me). */
export const KIOSK_REFRESH_MS = 30 * 60_000;

/** The sites one read found, each with its company when the read knows it. */
export type SitesRead = Array<{ id: number; company_id?: number }>;

/**
 * The dashboards a user can see, in rotation order: the agent dashboard (agents), each company dashboard,
 * then each site dashboard. `sites` are the site lists read for the user: one per company (company users),
 * the agent's own list (agents), or the site details (site users); `companyIds[i]` names the company of
 * `sites[i]` when its entries do not carry one.
 */
export function wallScreenDashboards(
  user: Pick<CurrentUser, 'agent' | 'companies' | 'sites'> | null,
  sites: Array<{ list: SitesRead; companyId?: number }>,
): string[] {
  const kind = userKind(user);
  if (!user || kind === 'none') return [];
  const out: string[] = [];
  if (kind === 'agent') out.push(paths.agentDashboard);
  if (kind !== 'site') for (const c of user.companies) out.push(paths.companyDashboard(c.id));
  for (const { list, companyId } of sites) {
    for (const site of list) {
      const company = site.company_id ?? companyId;
      if (company) out.push(paths.siteDashboard(company, site.id));
    }
  }
  return [...new Set(out)];
}

/** The wall-screen rotation of the signed-in user, read through the queries the console already has. */
export function useWallScreenDashboards(enabled: boolean): string[] {
  const { user } = useSession();
  const kind = userKind(user);
  const lists = useQueries({
    queries:
      enabled && user
        ? kind === 'agent' && user.agent
          ? [siteQueries.list({ kind: 'agent', id: user.agent })]
          : kind === 'company'
            ? user.companies.map((c) => siteQueries.list({ kind: 'company', id: c.id }))
            : []
        : [],
  });
  const details = useQueries({
    queries: enabled && user && kind === 'site' ? user.sites.map((s) => siteQueries.detail(s.id)) : [],
  });
  const listData = lists.map((q) => q.data);
  const detailData = details.map((q) => q.data);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the answers' data, not the query objects, decide the list
  return useMemo(() => {
    const sites = [
      ...listData.map((list, i) => ({
        list: list ?? [],
        companyId: kind === 'company' ? user?.companies[i]?.id : undefined,
      })),
      ...detailData.map((d) => ({ list: d ? [d] : [] })),
    ];
    return wallScreenDashboards(user, sites);
  }, [user, kind, ...listData, ...detailData]);
}

/** The dashboard after `current` in `list` (the first when current is not in it), or null for none. */
export function nextDashboard(list: string[], current: string): string | null {
  if (list.length === 0) return null;
  const at = list.indexOf(current.replace(/\/$/, ''));
  const next = list[(at + 1) % list.length]!;
  return next === current ? null : next;
}

/**
 * While a wall screen rotates: every `seconds`, go to the next dashboard, keeping the query (kiosk, rotate).
 * The place is tracked here too, as a navigation may still be rendering (a lazily loaded page) at the tick.
 */
export function useKioskRotation(mode: KioskMode) {
  const navigate = useNavigate();
  const { pathname, search } = useLocation();
  const list = useWallScreenDashboards(mode.rotateS !== null);
  const listRef = useRef(list);
  listRef.current = list;
  const placeRef = useRef({ pathname, search });
  useEffect(() => {
    placeRef.current = { pathname, search };
  }, [pathname, search]);
  useEffect(() => {
    if (mode.rotateS === null) return;
    const timer = setInterval(() => {
      const next = nextDashboard(listRef.current, placeRef.current.pathname);
      if (!next) return;
      placeRef.current = { ...placeRef.current, pathname: next };
      navigate({ pathname: next, search: placeRef.current.search });
    }, mode.rotateS * 1000);
    return () => clearInterval(timer);
  }, [mode.rotateS, navigate]);
}

/** Tokens a kiosk sent or received in a refresh, with when (ms): see refreshOnShow. */
const recentKioskTokens = new Map<string, number>();

/**
 * The refresh as a kiosk shows: skipped when the stored token was itself sent or received by such a refresh
 * less than a minute ago, so a frame mounted again (a route change, a remount) does not ask twice.
 */
async function refreshOnShow(now = Date.now()) {
  const token = sessionStore.get().token;
  for (const [t, at] of recentKioskTokens) if (now - at >= 60_000) recentKioskTokens.delete(t);
  if (!token || recentKioskTokens.has(token)) return;
  recentKioskTokens.set(token, now);
  if (await refreshToken(token)) recentKioskTokens.set(sessionStore.get().token, Date.now());
}

/**
 * While a kiosk shows, its token does not expire before its session does (12 h, or 30 days after
 * remember-me; refreshing never extends a session): the token is traded for a fresh one on entry and every
 * KIOSK_REFRESH_MS (POST /api-token-refresh/), and the larger type is on.
 */
export function useKioskSession(on: boolean) {
  useEffect(() => {
    if (!on) return;
    void refreshOnShow();
    const timer = setInterval(() => void refreshToken(), KIOSK_REFRESH_MS);
    document.documentElement.dataset.kiosk = '';
    return () => {
      clearInterval(timer);
      delete document.documentElement.dataset.kiosk;
    };
  }, [on]);
}

/** The wall screen's work while it shows: the session kept alive and the rotation. Draws nothing. */
export default function KioskRunner({ mode }: { mode: KioskMode }) {
  useKioskSession(mode.on);
  useKioskRotation(mode);
  return null;
}
