import type { Alert, SiteDetail } from '@forecourt/contract/fleet';
import type { CurrentUser } from '@forecourt/contract/users';

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
