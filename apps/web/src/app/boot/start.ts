import { matchPath } from 'react-router';
import { initialLanguage } from '../../i18n/i18n.ts';
import { prepareTimeOfDay } from '../../i18n/time-of-day.ts';
import { hasSession, sessionStore } from '../../lib/auth/session.ts';
import { holdSecondaryReads } from '../../lib/first-view-gate.ts';
import { whenIdle } from '../../lib/when-idle.ts';
import type { Board } from '../../lib/widget-descriptor.ts';
import { boardLayout, widgetCode } from '../../widgets/registry.ts';
import { DASHBOARD_ROUTES, type DashboardRoute, loadPagesFrame } from './dashboards.ts';

/** The dashboard route a hash address names, with its parameters (the route table's own matching). */
export function matchDashboard(
  hash: string,
): { route: DashboardRoute; params: Record<string, string | undefined> } | null {
  const pathname = hash.replace(/^#/, '').split('?')[0] || '/';
  for (const route of DASHBOARD_ROUTES) {
    const match = matchPath({ path: `/${route.path}`, end: true }, pathname);
    if (match) return { route, params: match.params };
  }
  return null;
}

/** The widgets whose code a board's first view needs (their descriptors' `firstView`). */
export const firstViewWidgets = (board: Board) =>
  boardLayout(board)
    .filter((cell) => cell.place.firstView)
    .map((cell) => cell.widget);

/**
 * How a signed-in page starts, with a session already stored: the page frame, the dashboard the address names and
 * its first view's widgets are fetched at once, alongside the translations, instead of one after the other once
 * they have rendered (each step of that chain is a round trip on a phone); theme-init.js has asked for their files
 * already (plan.ts). The route table renders the same modules (dashboards.ts, widgets/registry.ts): loaded by the
 * first render, they show without a Suspense fallback, and so without React's 300 ms hold on content that replaces
 * a fallback. Resolves once they have loaded (or failed to), at once without a session: main.tsx renders then.
 *
 * Once the frame has checked the stored user with the schemas and the page's and widgets' code is here, the first
 * reads go out: the page's own (its module's `firstReads`, dashboards.ts) and its widgets' (their descriptors'
 * `firstReads`), the `queryOptions` factories they render with; the header's bell waits for them
 * (lib/first-view-gate.ts).
 */
export function startSignedIn(hash = window.location.hash): Promise<void> {
  if (!hasSession()) return Promise.resolve();
  const frame = loadPagesFrame();
  // While those load, the widget cards' time formatter (its locale data is the costly part).
  whenIdle(() => prepareTimeOfDay(initialLanguage()));
  const found = matchDashboard(hash);
  if (!found)
    return frame.then(
      () => undefined,
      () => undefined,
    );
  const { route, params } = found;
  const page = route.load();
  const widgets = firstViewWidgets(route.board).map((widget) => widgetCode(widget)());
  const reads = Promise.all([frame, import('../../lib/query-client.ts'), page, ...widgets]).then(
    ([, { queryClient }, ...modules]) => {
      const { user } = sessionStore.get();
      const scope = hasSession() && user ? route.scope(params, user) : null;
      if (!scope) return [];
      return modules.flatMap((m) => m.firstReads?.(scope) ?? []).map((o) => queryClient.prefetchQuery(o));
    },
  );
  holdSecondaryReads(reads.then((answers) => Promise.allSettled(answers)));
  return Promise.allSettled([frame, page, ...widgets]).then(() => undefined);
}
