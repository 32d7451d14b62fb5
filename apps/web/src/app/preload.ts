import { hasSession, sessionStore } from '../lib/auth/session.ts';

/**
 * With a session already stored, the page frame and the dashboard the address names are fetched at once,
 * alongside the translations, instead of one after the other once the translations have arrived (each step
 * of that chain is a round trip on a phone). The route table's own `lazy()` imports then find them loaded.
 * A fleet dashboard's map code (Leaflet) comes at once too, and its first reads go out as soon as the stored
 * user has been checked, instead of once the frame and the page have rendered.
 */
export function preloadSignedInRoute(hash = window.location.hash) {
  if (!hasSession()) return;
  void import('./frame/pages-frame.tsx');
  const schemas = import('../lib/auth/schemas.ts');
  const path = hash.replace(/^#/, '').split('?')[0];
  const agent = /^\/agent(?:\/(\d+))?\/dashboard\/?$/.exec(path);
  const company = /^\/company\/(\d+)\/dashboard\/?$/.exec(path);
  if (agent) {
    void import('./routes/pages/dashboards/agent-dashboard-page.tsx');
  } else if (/^\/company\/\d+\/site\/\d+\/dashboard\/?$/.test(path)) {
    void import('./routes/pages/dashboards/site-dashboard-page.tsx');
  } else if (company) {
    void import('./routes/pages/dashboards/company-dashboard-page.tsx');
  }
  if (!agent && !company) return;
  void import('../widgets/maps/components/leaflet-maps.tsx');
  const reads = import('./routes/pages/dashboards/first-reads.ts');
  void Promise.all([schemas, reads]).then(([{ checkStoredUser }, { prefetchFleetDashboard }]) => {
    checkStoredUser();
    const { user } = sessionStore.get();
    if (!hasSession() || !user) return;
    // The bare `#/agent/dashboard` shows an agent's own dashboard; other users are sent elsewhere.
    const agentId = agent ? Number(agent[1] ?? (user.agent || 0)) : 0;
    if (agent && agentId > 0) prefetchFleetDashboard({ kind: 'agent', id: agentId });
    else if (company) prefetchFleetDashboard({ kind: 'company', id: Number(company[1]) });
  });
}
