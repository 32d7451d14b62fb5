import { QueryClient, type QueryKey } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { alertQueries } from './alerts.ts';
import { commandQueries } from './commands.ts';
import { companyQueries } from './companies.ts';
import { mapTerminalQueries } from './map-terminals.ts';
import { CHANGE_KINDS, type FleetChange, queriesTouchedBy } from './queries-touched-by.ts';
import { QUERY_ROOTS, scopedKey } from './query-keys.ts';
import { siteQueries } from './sites.ts';
import { timeZoneQueries } from './time-zones.ts';

const agent = { kind: 'agent', id: 7 } as const;
const company = { kind: 'company', id: 11 } as const;
const otherCompany = { kind: 'company', id: 12 } as const;
const site = { kind: 'site', id: 101 } as const;
const otherSite = { kind: 'site', id: 201 } as const;

/** Keys as the console's factories build them (widget-owned ones through `scopedKey`, as their factories do). */
const KEYS: Record<string, QueryKey> = {
  'alerts agent': alertQueries.list(agent).queryKey,
  'alerts company': alertQueries.list(company).queryKey,
  'alerts site': alertQueries.list(site).queryKey,
  'hardware issues site': alertQueries.list(site, { event_type: [1, 2] }).queryKey,
  'bell agent': alertQueries.list(agent, { limit_to: 20 }).queryKey,
  'alerts other site': alertQueries.list(otherSite).queryKey,
  'alerts other company': alertQueries.list(otherCompany).queryKey,
  'sites agent': siteQueries.list(agent).queryKey,
  'sites company': siteQueries.list(company).queryKey,
  'site detail': siteQueries.detail(site.id).queryKey,
  'company detail': companyQueries.detail(company.id).queryKey,
  'time zones company': timeZoneQueries.list(company).queryKey,
  'map agent': mapTerminalQueries.fleet(agent).queryKey,
  'map site': mapTerminalQueries.site(site).queryKey,
  'battery site': scopedKey(QUERY_ROOTS.battery, site),
  'battery other site': scopedKey(QUERY_ROOTS.battery, otherSite),
  'environment site': [...scopedKey(QUERY_ROOTS.environment, site), { latest: true }],
  'pumps site': scopedKey(QUERY_ROOTS.pumps, site),
  'pump status site': scopedKey(QUERY_ROOTS.pumpStatus, site),
  'connectivity company': [...scopedKey(QUERY_ROOTS.connectivity, company), { limit_to: 10 }],
  'transactions site': scopedKey(QUERY_ROOTS.transactions, site),
  'shocks company': [...scopedKey(QUERY_ROOTS.shocks, company), { limit_to: 50 }],
  'pump timeline': commandQueries.timeline('pump', 5).queryKey,
  'terminal timeline': commandQueries.timeline('terminal', 1001).queryKey,
  'other terminal timeline': commandQueries.timeline('terminal', 1002).queryKey,
  'watched command': commandQueries.detail(501).queryKey,
};

/** Fill a cache with every query above, apply the change's invalidations, name what went stale. */
async function refreshed(change: FleetChange): Promise<string[]> {
  const client = new QueryClient();
  for (const key of Object.values(KEYS)) client.setQueryData(key, []);
  for (const key of queriesTouchedBy(change)) {
    await client.invalidateQueries({ queryKey: key, refetchType: 'none' });
  }
  return Object.entries(KEYS)
    .filter(([, key]) => client.getQueryState(key)?.isInvalidated)
    .map(([name]) => name)
    .sort();
}

const at = { agentId: 7, companyId: 11, siteId: 101 };

describe('queriesTouchedBy', () => {
  it('an alert refreshes the alerts, hardware issues and bell of its site, company and agent only', async () => {
    expect(await refreshed({ kind: 'alert', ...at })).toEqual([
      'alerts agent',
      'alerts company',
      'alerts site',
      'bell agent',
      'hardware issues site',
    ]);
  });

  it('telemetry refreshes the readings of its own site', async () => {
    expect(await refreshed({ kind: 'telemetry', ...at, terminalId: 1001 })).toEqual([
      'battery site',
      'environment site',
    ]);
  });

  it('connectivity refreshes connectivity lists, sites online and the maps', async () => {
    expect(await refreshed({ kind: 'connectivity', ...at })).toEqual([
      'connectivity company',
      'map agent',
      'map site',
      'sites agent',
      'sites company',
    ]);
  });

  it('a pump change refreshes the pumps, their status and every pump command', async () => {
    expect(await refreshed({ kind: 'pump', ...at })).toEqual([
      'pump status site',
      'pump timeline',
      'pumps site',
      'watched command',
    ]);
  });

  it('a reboot refreshes the timeline of its terminal, or of every terminal when none is named', async () => {
    expect(await refreshed({ kind: 'reboot', ...at, terminalId: 1001 })).toEqual([
      'terminal timeline',
      'watched command',
    ]);
    expect(await refreshed({ kind: 'reboot', siteId: 101 })).toEqual([
      'other terminal timeline',
      'terminal timeline',
      'watched command',
    ]);
  });

  it('transactions and shocks refresh their own lists', async () => {
    expect(await refreshed({ kind: 'transaction', ...at })).toEqual(['transactions site']);
    expect(await refreshed({ kind: 'shock', ...at })).toEqual(['shocks company']);
  });

  it('a fleet change refreshes sites, details, time zones, maps and connectivity', async () => {
    expect(await refreshed({ kind: 'fleet', ...at })).toEqual([
      'company detail',
      'connectivity company',
      'map agent',
      'map site',
      'site detail',
      'sites agent',
      'sites company',
      'time zones company',
    ]);
  });

  it('a change that names no scope refreshes the whole resource', async () => {
    expect(await refreshed({ kind: 'telemetry' })).toEqual([
      'battery other site',
      'battery site',
      'environment site',
    ]);
    expect(queriesTouchedBy({ kind: 'alert', siteId: 0 })).toEqual([['alerts']]);
  });

  it('every change kind touches something', () => {
    for (const kind of CHANGE_KINDS) expect(queriesTouchedBy({ kind }).length).toBeGreaterThan(0);
  });
});
