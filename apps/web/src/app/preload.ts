import { initialLanguage } from '../i18n/i18n.ts';
import { prepareTimeOfDay } from '../i18n/time-of-day.ts';
import { hasSession, sessionStore } from '../lib/auth/session.ts';
import { startEarlyReads } from '../lib/early-reads.ts';
import { holdSecondaryReads } from '../lib/first-view-gate.ts';
import type { FleetScope } from '../lib/scope.ts';
import { whenIdle } from '../lib/when-idle.ts';
import {
  loadAgentDashboard,
  loadCompanyDashboard,
  loadPagesFrame,
  loadSiteDashboard,
} from './routes/first-view-modules.ts';
import { fleetFirstReadUrls } from './routes/pages/dashboards/first-read-urls.ts';

/**
 * With a session already stored, the page frame and the dashboard the address names are fetched at once,
 * alongside the translations, instead of one after the other once the translations have arrived (each step
 * of that chain is a round trip on a phone). The route table renders them from the same loaders
 * (routes/first-view-modules.ts): loaded by the first render, they show without a Suspense fallback, and so without
 * React's 300 ms hold on content that replaces a fallback. Resolves once they have loaded (or failed to), at once
 * without a session: main.tsx renders then.
 * A fleet dashboard's first reads go out at once (lib/early-reads.ts), their answers checked by the schemas once
 * the stored user has been checked, instead of once the frame and the page have rendered.
 */
export function preloadSignedInRoute(hash = window.location.hash): Promise<void> {
  if (!hasSession()) return Promise.resolve();
  const frame = loadPagesFrame();
  const modules: Promise<unknown>[] = [frame];
  // While those load, the widget cards' time formatter (its locale data is the costly part).
  whenIdle(() => prepareTimeOfDay(initialLanguage()));
  const path = hash.replace(/^#/, '').split('?')[0];
  const agent = /^\/agent(?:\/(\d+))?\/dashboard\/?$/.exec(path);
  const company = /^\/company\/(\d+)\/dashboard\/?$/.exec(path);
  if (agent) {
    modules.push(loadAgentDashboard());
  } else if (/^\/company\/\d+\/site\/\d+\/dashboard\/?$/.test(path)) {
    modules.push(loadSiteDashboard());
  } else if (company) {
    modules.push(loadCompanyDashboard());
  }
  const loaded = Promise.allSettled(modules).then(() => undefined);
  if (!agent && !company) return loaded;
  // The bare `#/agent/dashboard` shows an agent's own dashboard; other users are sent elsewhere.
  const scopeOf = (user: { agent?: number | null } | null): FleetScope | null => {
    if (company) return { kind: 'company', id: Number(company[1]) };
    const id = Number(agent?.[1] ?? (user?.agent || 0));
    return id > 0 ? { kind: 'agent', id } : null;
  };
  // The stored user as it looks at a glance (the schemas check it below): its first reads go out now.
  const early = scopeOf(sessionStore.get().user);
  if (early) {
    const answers = startEarlyReads(fleetFirstReadUrls(early), sessionStore.get().token);
    // The header's bell reads once these have answered and been drawn (lib/first-view-gate.ts).
    if (answers.length) holdSecondaryReads(Promise.allSettled(answers));
  }
  // The frame's loader checks the stored user with the schemas first.
  void Promise.all([frame, import('./routes/pages/dashboards/first-reads.ts')]).then(
    ([, reads]) => {
      const { user } = sessionStore.get();
      if (!hasSession() || !user) return;
      const scope = scopeOf(user);
      if (scope) reads.prefetchFleetDashboard(scope);
    },
    () => undefined,
  );
  return loaded;
}
