import { useMemo } from 'react';
import { useLocation } from 'react-router';

/**
 * Wall screens (docs/product.md#wall-screens): `?kiosk=1` on a dashboard route shows the dashboard alone
 * (no header, sidebars or footer, larger type) and keeps the session alive; `&rotate=N` moves to the next
 * dashboard the user can see every N seconds. This module reads the mode; what a wall screen does while it shows
 * (rotation, keeping the session) is in kiosk-mode.tsx, loaded only when one opens.
 */

/** The shortest rotation: a smaller positive N is raised to it. */
export const MIN_ROTATE_S = 5;

const DASHBOARD_PATH = /^\/(agent(\/\d+)?|company\/\d+(\/site\/\d+)?)\/dashboard\/?$/;

/** Whether a route path is one of the dashboards (agent, company, site). */
export const isDashboardPath = (pathname: string) => DASHBOARD_PATH.test(pathname);

export interface KioskMode {
  /** `kiosk=1` on a dashboard route. */
  on: boolean;
  /** Seconds between dashboards, or null: no `rotate`, or a value that is not a positive whole number. */
  rotateS: number | null;
}

/**
 * Reads `kiosk` and `rotate` from a route's path and query. Kiosk applies to dashboard routes only. `rotate`
 * is a whole number of seconds: 1–4 is raised to MIN_ROTATE_S; 0, a negative number or text is ignored (the
 * kiosk shows, without rotation).
 */
export function parseKiosk(pathname: string, search: string): KioskMode {
  const query = new URLSearchParams(search);
  const on = query.get('kiosk') === '1' && isDashboardPath(pathname);
  const raw = query.get('rotate')?.trim() ?? '';
  const n = /^\d{1,6}$/.test(raw) ? Number(raw) : 0;
  return { on, rotateS: on && n > 0 ? Math.max(n, MIN_ROTATE_S) : null };
}

/** The kiosk mode of the current route. */
export function useKiosk(): KioskMode {
  const { pathname, search } = useLocation();
  return useMemo(() => parseKiosk(pathname, search), [pathname, search]);
}
