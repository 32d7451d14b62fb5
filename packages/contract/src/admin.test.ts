import { describe, expect, it } from 'vitest';
import {
  AdminListQuerySchema,
  AuditQuerySchema,
  ImportQuerySchema,
  ImportRowSchema,
  isIanaTimeZone,
  PumpCreateSchema,
  SiteCreateSchema,
  SitePatchSchema,
  TerminalCreateSchema,
  timeZoneNames,
  UserCreateSchema,
  UserPatchSchema,
} from './admin.ts';

const messages = (r: { success: boolean; error?: { issues: { message: string }[] } }) =>
  r.success ? [] : (r.error?.issues.map((i) => i.message) ?? []);

describe('time zones', () => {
  it('accepts IANA names and aliases, refuses offsets and made-up names', () => {
    expect(isIanaTimeZone('Europe/London')).toBe(true);
    expect(isIanaTimeZone('America/Argentina/Buenos_Aires')).toBe(true);
    expect(isIanaTimeZone('UTC')).toBe(true);
    expect(isIanaTimeZone('Mars/Olympus_Mons')).toBe(false);
    expect(isIanaTimeZone('+01:00')).toBe(false);
    expect(isIanaTimeZone('')).toBe(false);
    expect(isIanaTimeZone('<script>')).toBe(false);
  });
  it('lists the zones for the site form', () => {
    const names = timeZoneNames();
    expect(names).toContain('Europe/London');
    expect(names).toContain('UTC');
    expect(names.every(isIanaTimeZone)).toBe(true);
  });
});

describe('site', () => {
  const good = {
    company_id: 1,
    title: 'Leeds',
    number: 'S-1',
    lat: 53.8,
    lng: -1.55,
    timezone: 'Europe/London',
  };
  it('takes a good site, hostile text as given', () => {
    const r = SiteCreateSchema.safeParse({ ...good, title: '<img src=x onerror=alert(1)>' });
    expect(r.success && r.data.title).toBe('<img src=x onerror=alert(1)>');
  });
  it('names every bad field', () => {
    const r = SiteCreateSchema.safeParse({
      company_id: 'x',
      title: '',
      lat: 91,
      lng: -181,
      timezone: 'Nowhere/Else',
    });
    expect(messages(r)).toEqual(
      expect.arrayContaining([
        'company_id must be a numeric id',
        'title is required',
        'number is required',
        'lat must be a number between -90 and 90',
        'lng must be a number between -180 and 180',
        'timezone must be an IANA time zone name, e.g. Europe/London',
      ]),
    );
  });
  it('patches any subset, refuses unknown fields', () => {
    expect(SitePatchSchema.safeParse({ lat: 0 }).success).toBe(true);
    expect(SitePatchSchema.safeParse({ colour: 'red' }).success).toBe(false);
  });
});

describe('terminal and pump', () => {
  it('terminal coordinates are optional but bounded', () => {
    expect(
      TerminalCreateSchema.safeParse({ site_id: 1, terminal_id: 'T1', card_acceptor_name: 'A' }).success,
    ).toBe(true);
    expect(
      messages(
        TerminalCreateSchema.safeParse({ site_id: 1, terminal_id: ' ', card_acceptor_name: 'A', lat: 100 }),
      ),
    ).toEqual(['terminal_id is required', 'lat must be a number between -90 and 90']);
  });
  it('pump numbers are 1 to 999', () => {
    expect(PumpCreateSchema.safeParse({ site_id: 1, pump_no: 4 }).success).toBe(true);
    expect(messages(PumpCreateSchema.safeParse({ site_id: 1, pump_no: 0 }))).toEqual([
      'pump_no must be a whole number from 1 to 999',
    ]);
  });
});

describe('users', () => {
  it('a company user needs companies, a site user sites', () => {
    expect(messages(UserCreateSchema.safeParse({ username: 'c', email: 'c@x.io', role: 'company' }))).toEqual(
      ['company_ids must name at least one company for a company user'],
    );
    expect(messages(UserCreateSchema.safeParse({ username: 's', email: 's@x.io', role: 'site' }))).toEqual([
      'site_ids must name at least one site for a site user',
    ]);
    const ok = UserCreateSchema.parse({ username: 'a', email: 'a@x.io', role: 'agent' });
    expect(ok).toMatchObject({ name: '', company_ids: [], site_ids: [], disabled: false });
  });
  it('names a bad role, email and username', () => {
    expect(messages(UserCreateSchema.safeParse({ username: 'a b', email: 'nope', role: 'boss' }))).toEqual([
      'username may hold letters, digits and . _ @ + - only',
      'email must be a real address',
      "role must be 'agent', 'company' or 'site'",
    ]);
  });
  it('a patch may only disable, or change the role with its scope', () => {
    expect(UserPatchSchema.parse({ disabled: true })).toEqual({ disabled: true });
    expect(UserPatchSchema.safeParse({ role: 'site' }).success).toBe(false);
    expect(UserPatchSchema.parse({ role: 'site', site_ids: [3, 3, 4] }).site_ids).toEqual([3, 4]);
  });
});

describe('lists, import, audit', () => {
  it('pages like the logs', () => {
    expect(AdminListQuerySchema.parse({})).toEqual({ limit_to: 100 });
    expect(messages(AdminListQuerySchema.safeParse({ limit_to: '0', before: 'abc' }))).toEqual([
      'limit_to must be a whole number from 1 to 1000',
      'before must be a cursor returned by this list (the id of the last row seen)',
    ]);
  });
  it('dry_run defaults to true', () => {
    expect(ImportQuerySchema.parse({}).dry_run).toBe(true);
    expect(ImportQuerySchema.parse({ dry_run: 'false' }).dry_run).toBe(false);
    expect(ImportQuerySchema.safeParse({ dry_run: 'maybe' }).success).toBe(false);
  });
  it('checks a CSV row', () => {
    const row = {
      company: 'Acme',
      site_number: '7',
      site_title: 'Leeds',
      lat: '53.8',
      lng: '-1.5',
      timezone: 'Europe/London',
      terminal_id: 'T7',
      pumps: '4',
    };
    expect(ImportRowSchema.parse(row)).toMatchObject({ lat: 53.8, lng: -1.5, pumps: 4 });
    expect(messages(ImportRowSchema.safeParse({ ...row, lat: 'north', pumps: '2.5' }))).toEqual([
      'lat must be a number between -90 and 90',
      'pumps must be a whole number from 0 to 64',
    ]);
  });
  it('filters the audit by entity', () => {
    expect(AuditQuerySchema.parse({ entity: 'site', user: 'agent' })).toMatchObject({
      entity: 'site',
      user: 'agent',
    });
    expect(AuditQuerySchema.safeParse({ entity: 'planet' }).success).toBe(false);
  });
});
