import { describe, expect, it } from 'vitest';
import {
  companySiteHardwareLogApiPath,
  companySiteHardwareLogPath,
  hasLog,
  LOG_KIND_KEYS,
  logApiPath,
  logPath,
  logRoutePatterns,
} from './log-paths.ts';

describe('log paths', () => {
  it('writes the widget links as the product lists them, with or without the trailing slash', () => {
    expect(logPath('alert', 'agent', 1)).toBe('/agent/1/alert/log/');
    expect(logPath('connectivity', 'company', 2)).toBe('/company/2/connectivity/log');
    expect(logPath('pump-activation', 'site', 3)).toBe('/site/3/pump/activation/log/');
    expect(logPath('pump-status', 'site', 3)).toBe('/site/3/pump/status/log');
    expect(logPath('shock', 'company', 2)).toBe('/company/2/shock/alert/log');
    expect(logPath('battery', 'site', 3)).toBe('/site/3/terminal/battery/log');
    expect(logPath('reboot', 'site', 7)).toBe('/site/7/terminal/reboot/log/');
    expect(companySiteHardwareLogPath(1, 3)).toBe('/company/1/site/3/terminal/hardware/log/');
  });

  it('reads each log from the API path of the same name', () => {
    expect(logApiPath('pump-status', 'site', 3)).toBe('/api/site/3/pump/status/log/');
    expect(logApiPath('connectivity', 'agent', ':id')).toBe('/api/agent/:id/connectivity/log/');
    expect(companySiteHardwareLogApiPath(1, 3)).toBe('/api/company/1/site/3/terminal/hardware/log/');
  });

  it('site-only logs (pump status, telemetry) exist only for a site', () => {
    expect(hasLog('battery', 'site')).toBe(true);
    expect(hasLog('battery', 'company')).toBe(false);
    expect(hasLog('pump-status', 'agent')).toBe(false);
    expect(hasLog('alert', 'agent')).toBe(true);
  });

  it('gives a router one pattern per log and scope, plus the company dashboard hardware link', () => {
    const patterns = logRoutePatterns();
    expect(patterns).toContainEqual(['site/:siteId/pump/status/log', 'pump-status']);
    expect(patterns).toContainEqual(['agent/:agentId/terminal/reboot/log', 'reboot']);
    expect(patterns).toContainEqual(['company/:companyId/site/:siteId/terminal/hardware/log', 'hardware']);
    expect(patterns).not.toContainEqual(['company/:companyId/terminal/battery/log', 'battery']);
    expect(new Set(patterns.map(([p]) => p)).size).toBe(patterns.length);
    expect(new Set(patterns.map(([, k]) => k))).toEqual(new Set(LOG_KIND_KEYS));
  });
});
