import { ADMIN_ENTITY_NAMES } from '@forecourt/contract/admin-entities';
import { describe, expect, it } from 'vitest';
import { logMenu, MENU_ITEMS, menuFor } from './menu-items.ts';

/** The entries of every user with a scope, in order, up to those only an agent has. */
const SCOPED_MENU = [
  'MENU_DASHBOARD',
  'MENU_PROFILE',
  'MENU_LOGS',
  'MENU_RULES',
  'MENU_MAINTENANCE',
  'MENU_REPORTS',
  'MENU_NOTIFICATIONS',
];

describe('menu items', () => {
  it('an agent gets the logs of its own scope, site-only logs left out', () => {
    const logs = logMenu({ kind: 'agent', id: 7 });
    const paths = logs?.children?.map((c) => c.to);
    expect(paths).toEqual([
      '/agent/7/alert/log',
      '/agent/7/connectivity/log',
      '/agent/7/terminal/hardware/log',
      '/agent/7/terminal/reboot/log',
      '/agent/7/shock/alert/log',
      '/agent/7/pump/activation/log',
    ]);
  });

  it('a site user gets every log screen of its site', () => {
    const paths = logMenu({ kind: 'site', id: 3 })?.children?.map((c) => c.to);
    expect(paths).toHaveLength(10);
    expect(paths).toContain('/site/3/pump/status/log');
    expect(paths).toContain('/site/3/terminal/battery/log');
  });

  it('a user without scope has no Logs entry; others have it after Profile', () => {
    expect(menuFor(null)).toBe(MENU_ITEMS);
    expect(menuFor({ kind: 'company', id: 1 }).map((i) => i.label)).toEqual([
      ...SCOPED_MENU,
      'MENU_UI_FEATURES',
    ]);
    expect(menuFor({ kind: 'site', id: 3 }).some((i) => i.label === 'MENU_NOTIFICATIONS')).toBe(false);
  });

  it('only an agent has the Administration entry, after its Logs, with a page per entity', () => {
    const agent = menuFor({ kind: 'agent', id: 7 });
    expect(agent.map((i) => i.label)).toEqual([
      ...SCOPED_MENU,
      'MENU_ADMIN',
      'MENU_SOFTWARE',
      'MENU_UI_FEATURES',
    ]);
    // A page per administered entity, in the contract's menu order, then the import and the audit.
    expect(agent[7].children?.map((c) => c.to)).toEqual([
      ...ADMIN_ENTITY_NAMES.map((name) => `/admin/${name}`),
      '/admin/import',
      '/admin/audit',
    ]);
    expect(agent[8].to).toBe('/software');
    expect(menuFor({ kind: 'site', id: 3 }).some((i) => i.label === 'MENU_ADMIN')).toBe(false);
    expect(menuFor({ kind: 'company', id: 3 }).some((i) => i.label === 'MENU_SOFTWARE')).toBe(false);
  });

  it('Rules for agents and company users, Maintenance for every role with a scope', () => {
    const labels = (kind: 'agent' | 'company' | 'site') => menuFor({ kind, id: 3 }).map((i) => i.label);
    for (const kind of ['agent', 'company'] as const) {
      expect(labels(kind)).toContain('MENU_RULES');
      expect(labels(kind)).toContain('MENU_MAINTENANCE');
    }
    expect(labels('site')).not.toContain('MENU_RULES');
    expect(labels('site')).toContain('MENU_MAINTENANCE');
    expect(menuFor({ kind: 'site', id: 3 }).find((i) => i.label === 'MENU_MAINTENANCE')?.to).toBe(
      '/maintenance',
    );
    expect(menuFor(null).some((i) => i.label === 'MENU_MAINTENANCE')).toBe(false);
  });
});
