import { QueryClient, type QueryKey } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { alertQueries } from './alerts.ts';
import { commandQueries } from './commands.ts';
import { companyQueries } from './companies.ts';
import { logQueries } from './logs.ts';
import { mapTerminalQueries } from './map-terminals.ts';
import { CHANGE_KINDS, type FleetChange, queriesTouchedBy } from './queries-touched-by.ts';
import { QUERY_ROOTS, scopedKey } from './query-keys.ts';
import { siteQueries } from './sites.ts';
import { telemetryQueries } from './telemetry-history.ts';
import { timeZoneQueries } from './time-zones.ts';

const agent = { kind: 'agent', id: 7 } as const;
const company = { kind: 'company', id: 11 } as const;
const otherCompany = { kind: 'company', id: 12 } as const;
const site = { kind: 'site', id: 101 } as const;
const otherSite = { kind: 'site', id: 201 } as const;

/** The logs' keys as the log screen builds them (scope, API segment, filters, limit). */
const logKey = (scope: Parameters<typeof logQueries.pages>[0], segment: string) =>
  logQueries.pages(scope, segment, z.object({ cursor: z.string() }), { state: 'active' }, 50).queryKey;

/** Keys as the console's factories build them (widget-owned ones through `scopedKey`, as their factories do). */
const KEYS: Record<string, QueryKey> = {
  'alerts agent': alertQueries.list(agent).queryKey,
  'alerts company': alertQueries.list(company).queryKey,
  'alerts site': alertQueries.list(site).queryKey,
  'hardware issues site': alertQueries.list(site, { event_type: [1, 2] }).queryKey,
  'bell agent': alertQueries.list(agent, { limit_to: 20 }).queryKey,
  'bell count agent': alertQueries.count(agent, { state: 'active', acknowledged: false }).queryKey,
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
  'terminals site': scopedKey(QUERY_ROOTS.terminals, site),
  'admin sites': [QUERY_ROOTS.admin, 'sites', 'list', {}, 50],
  'pump timeline': commandQueries.timeline('pump', 5).queryKey,
  'other pump timeline': commandQueries.timeline('pump', 6).queryKey,
  'terminal timeline': commandQueries.timeline('terminal', 1001).queryKey,
  'other terminal timeline': commandQueries.timeline('terminal', 1002).queryKey,
  'watched command': commandQueries.detail(501).queryKey,
  'chart tail': telemetryQueries.tail(1001, 'battery_life', '2026-11-27T10:00:00.000Z').queryKey,
  'other terminal chart tail': telemetryQueries.tail(1002, 'battery_life', '2026-11-27T10:00:00.000Z')
    .queryKey,
  'chart range': telemetryQueries.range(
    1001,
    'battery_life',
    '2026-11-26T10:00:00.000Z',
    '2026-11-27T10:00:00.000Z',
  ).queryKey,
};

Object.assign(KEYS, {
  'alert log agent': logKey(agent, 'alert/log'),
  'alert log other site': logKey(otherSite, 'alert/log'),
  'hardware log of a company site': logKey(
    { kind: 'site', id: site.id, companyId: company.id },
    'terminal/hardware/log',
  ),
  'connectivity log company': logKey(company, 'connectivity/log'),
  'battery log site': logKey(site, 'terminal/battery/log'),
  'pump activation log site': logKey(site, 'pump/activation/log'),
  'pump status log site': logKey(site, 'pump/status/log'),
  'reboot log agent': logKey(agent, 'terminal/reboot/log'),
  'reboot log site': logKey(site, 'terminal/reboot/log'),
  'shock log company': logKey(company, 'shock/alert/log'),
});

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

const LOGS = Object.keys(KEYS).filter((name) => name.includes(' log '));

describe('queriesTouchedBy', () => {
  it('an alert refreshes the alerts, hardware issues, bell list and count, alert and hardware logs of its site, company and agent only', async () => {
    expect(await refreshed({ kind: 'alert', ...at })).toEqual([
      'alert log agent',
      'alerts agent',
      'alerts company',
      'alerts site',
      'bell agent',
      'bell count agent',
      'hardware issues site',
      'hardware log of a company site',
    ]);
  });

  it("telemetry refreshes the readings of its own site, their logs and its terminal's chart tails, not their ranges", async () => {
    expect(await refreshed({ kind: 'telemetry', ...at, terminalId: 1001 })).toEqual([
      'battery log site',
      'battery site',
      'chart tail',
      'environment site',
    ]);
  });

  it('connectivity refreshes connectivity lists and log, sites online, the maps and the terminal list', async () => {
    expect(await refreshed({ kind: 'connectivity', ...at })).toEqual([
      'connectivity company',
      'connectivity log company',
      'map agent',
      'map site',
      'sites agent',
      'sites company',
      'terminals site',
    ]);
  });

  it("a pump change refreshes the pumps, their status, the pump logs and that pump's commands", async () => {
    expect(await refreshed({ kind: 'pump', ...at, terminalId: 1001, pumpId: 5 })).toEqual([
      'pump activation log site',
      'pump status log site',
      'pump status site',
      'pump timeline',
      'pumps site',
      'watched command',
    ]);
    // No pump named: every pump's timeline.
    expect(await refreshed({ kind: 'pump', ...at })).toContain('other pump timeline');
  });

  it('a reboot refreshes the reboot logs and the timeline of its terminal, or of every terminal when none is named', async () => {
    expect(await refreshed({ kind: 'reboot', ...at, terminalId: 1001 })).toEqual([
      'reboot log agent',
      'reboot log site',
      'terminal timeline',
      'watched command',
    ]);
    expect(await refreshed({ kind: 'reboot', siteId: 101 })).toEqual([
      'other terminal timeline',
      'reboot log site',
      'terminal timeline',
      'watched command',
    ]);
  });

  it('transactions and shocks refresh their own lists and logs', async () => {
    expect(await refreshed({ kind: 'transaction', ...at })).toEqual(['transactions site']);
    expect(await refreshed({ kind: 'shock', ...at })).toEqual(['shock log company', 'shocks company']);
  });

  it('a fleet change refreshes sites, details, time zones, maps, connectivity, terminals, pumps and administration', async () => {
    expect(await refreshed({ kind: 'fleet', ...at })).toEqual([
      'admin sites',
      'company detail',
      'connectivity company',
      'map agent',
      'map site',
      'pumps site',
      'site detail',
      'sites agent',
      'sites company',
      'terminals site',
      'time zones company',
    ]);
  });

  it('a change that names no scope refreshes the whole resource', async () => {
    expect(await refreshed({ kind: 'telemetry' })).toEqual(
      [
        'battery other site',
        'battery site',
        'chart tail',
        'environment site',
        'other terminal chart tail',
        ...LOGS,
      ].sort(),
    );
    expect(queriesTouchedBy({ kind: 'alert', siteId: 0 })).toEqual([['alerts'], ['logs'], ['logs']]);
  });

  it('every change kind touches something', () => {
    for (const kind of CHANGE_KINDS) expect(queriesTouchedBy({ kind }).length).toBeGreaterThan(0);
  });
});
