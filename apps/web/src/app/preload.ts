import { hasSession } from '../lib/auth/session.ts';

/**
 * With a session already stored, the page frame and the dashboard the address names are fetched at once,
 * alongside the translations, instead of one after the other once the translations have arrived (each step
 * of that chain is a round trip on a phone). The route table's own `lazy()` imports then find them loaded.
 */
export function preloadSignedInRoute(hash = window.location.hash) {
  if (!hasSession()) return;
  void import('./frame/pages-frame.tsx');
  void import('../lib/auth/schemas.ts');
  const path = hash.replace(/^#/, '').split('?')[0];
  if (/^\/agent(\/\d+)?\/dashboard\/?$/.test(path)) {
    void import('./routes/pages/dashboards/agent-dashboard-page.tsx');
  } else if (/^\/company\/\d+\/site\/\d+\/dashboard\/?$/.test(path)) {
    void import('./routes/pages/dashboards/site-dashboard-page.tsx');
  } else if (/^\/company\/\d+\/dashboard\/?$/.test(path)) {
    void import('./routes/pages/dashboards/company-dashboard-page.tsx');
  }
}
