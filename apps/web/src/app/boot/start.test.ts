import { describe, expect, it } from 'vitest';
import { firstViewWidgets, matchDashboard } from './start.ts';

describe('the boot', () => {
  it("finds the dashboard a hash names with the route table's own patterns", () => {
    const match = (hash: string) => {
      const found = matchDashboard(hash);
      return found && [found.route.board, found.route.scope(found.params, null)];
    };
    expect(match('#/agent/7/dashboard')).toEqual(['agent', { kind: 'agent', id: 7 }]);
    expect(match('#/company/3/dashboard/?kiosk=1&rotate=30')).toEqual([
      'company',
      { kind: 'company', id: 3 },
    ]);
    expect(match('#/company/3/site/12/dashboard')).toEqual(['site', { kind: 'site', id: 12 }]);
    expect(match('#/agent/x/dashboard')).toEqual(['agent', null]);
    expect(match('#/site/12/pump/status/log')).toBeNull();
    expect(match('')).toBeNull();
    // The bare path shows an agent's own dashboard.
    const bare = matchDashboard('#/agent/dashboard');
    expect(bare?.route.scope(bare.params, { agent: 4 } as never)).toEqual({ kind: 'agent', id: 4 });
  });

  it("loads a board's first-view widgets as their descriptors say", () => {
    expect(firstViewWidgets('agent').map((w) => w.id)).toEqual([
      'company-map',
      'sites-online',
      'local-time',
      'alerts',
    ]);
    expect(firstViewWidgets('site').map((w) => w.id)).toEqual(['aerial-map', 'pump-activation']);
  });
});
