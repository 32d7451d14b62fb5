import { describe, expect, it } from 'vitest';
import { companyQueries } from '../../lib/api/companies.ts';
import { siteQueries } from '../../lib/api/sites.ts';
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

  it("asks for a page's own heading reads with the first reads: a company's name, a site's title", async () => {
    const reads = async (hash: string) => {
      const found = matchDashboard(hash);
      const scope = found?.route.scope(found.params, null);
      const page = await found?.route.load();
      return scope ? page?.firstReads?.(scope).map((o) => o.queryKey) : undefined;
    };
    expect(await reads('#/company/3/dashboard')).toEqual([companyQueries.detail(3).queryKey]);
    expect(await reads('#/company/3/site/12/dashboard')).toEqual([siteQueries.detail(12).queryKey]);
    expect(await reads('#/agent/7/dashboard')).toBeUndefined();
  });
});
