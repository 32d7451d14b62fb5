import type { Alert, MapSite, SiteDetail } from '@forecourt/contract/fleet';
import type { AlertLogEntrySchema } from '@forecourt/contract/logs';
import type { CurrentUser } from '@forecourt/contract/users';
import type { z } from 'zod';

export function makeUser(overrides: Partial<CurrentUser> = {}): CurrentUser {
  return {
    id: 1,
    username: 'agent',
    name: 'Alex Agent',
    email: 'agent@example.com',
    avatar: null,
    picture: null,
    agent: 7,
    companies: [{ id: 11, name: 'Northern Fuels' }],
    sites: [{ id: 101, title: 'Leeds Road', number: '0101' }],
    ...overrides,
  };
}

export function makeAlert(overrides: Partial<Alert> = {}): Alert {
  const at = new Date('2024-05-01T10:00:00Z').toISOString();
  return {
    id: 1,
    text: 'Terminal offline: 0101-2 stopped answering',
    started_at: at,
    event_type: 3,
    created_at: at,
    number: '0101-2',
    issue: 'Terminal offline',
    customer_name: 'Northern Fuels',
    site_name: 'Leeds Road',
    severity: 'critical',
    state: 'active',
    cleared_at: null,
    acknowledged_at: null,
    acknowledged_by: null,
    note: null,
    rule_id: null,
    silenced: false,
    maintenance_id: null,
    ...overrides,
  };
}

/**
 * A row of an alert log (`GET /api/site/3/alert/log/` and the like): printer failure `paper jam <id>` of terminal 7
 * at Leeds Road (site 3 of company 1), minor and active.
 */
export function makeAlertLogEntry(
  overrides: Partial<z.infer<typeof AlertLogEntrySchema>> & { id: number },
): z.infer<typeof AlertLogEntrySchema> {
  const { id } = overrides;
  return {
    ...makeAlert(),
    cursor: String(id),
    text: `Printer failure: paper jam ${id}`,
    event_type: 2,
    issue: 'Printer failure',
    site_id: 3,
    company_id: 1,
    terminal_id: 7,
    timezone: 'Europe/London',
    severity: 'minor',
    ...overrides,
  };
}

/** `GET /api/site/detail/101/`: the demo user's site, Leeds Road of Northern Fuels. */
export function makeSiteDetail(overrides: Partial<SiteDetail> = {}): SiteDetail {
  return {
    id: 101,
    title: 'Leeds Road',
    number: '101',
    company_id: 11,
    company_name: 'Northern Fuels',
    lat: null,
    lng: null,
    timezone: 'Europe/London',
    ...overrides,
  };
}

/** A site of `GET /api/{scope}/{id}/map/terminals/`, its terminals given as [number, lat, lng, marker colour]. */
export function makeMapSite(
  id: number,
  title: string,
  no: string,
  terminals: Array<[string, number, number, MapSite['terminals'][number]['marker_color']]> = [],
): MapSite {
  return {
    id,
    site_title: title,
    site_no: no,
    terminals: terminals.map(([terminal_id, lat, lng, marker_color]) => ({
      terminal_id,
      lat,
      lng,
      marker_color,
    })),
  };
}
