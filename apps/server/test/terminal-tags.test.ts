import { AdminTerminalSchema, AuditEntrySchema, ImportResultSchema } from '@forecourt/contract/admin';
import { ErrorBodySchema } from '@forecourt/contract/common';
import { SiteTerminalSchema } from '@forecourt/contract/fleet';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { deviceCall, provisionDevice } from './fleet-fixture.ts';
import { buildTestApp, postgresUnavailable, type TestApp } from './helper.ts';

const TerminalList = z.array(AdminTerminalSchema);

/** Terminal tags and software versions (docs/targets.md): admin API, import column, site reads, device reports. */
describe.skipIf(postgresUnavailable)('terminal tags and software version', () => {
  let t: TestApp;
  let agent: string;
  let siteId: number;
  let n = 0;
  const uniq = (p: string) => `${p}${Date.now().toString(36)}${n++}`;

  const as = (opts: InjectOptions) => t.as(agent, opts);
  const get = (url: string) => as({ method: 'GET', url });
  const errorsOf = (res: { json(): unknown }) => ErrorBodySchema.parse(res.json()).data.errors;
  async function newTerminal(extra: Record<string, unknown> = {}) {
    const res = await as({
      method: 'POST',
      url: '/api/admin/terminals/',
      payload: { site_id: siteId, terminal_id: uniq('TT'), card_acceptor_name: 'Tag test', ...extra },
    });
    expect(res.statusCode, res.body).toBe(201);
    return AdminTerminalSchema.parse(res.json());
  }
  const changesOf = async (terminalId: number, kind: string) =>
    Number(
      (
        await t.database.query<{ n: number | string }>(
          'select count(*) as n from changes where terminal_id = $1 and kind = $2',
          [terminalId, kind],
        )
      )[0].n,
    );

  beforeAll(async () => {
    t = await buildTestApp();
    agent = await t.login('agent');
    const [s] = await t.database.query<{ id: number }>('select id from sites order by id limit 1');
    siteId = Number(s.id);
  });
  afterAll(async () => t?.close());

  it('admin terminal objects carry tags, software_version and created_at', async () => {
    const list = TerminalList.parse((await get('/api/admin/terminals/?limit_to=1000')).json());
    expect(list.length).toBeGreaterThan(40);
    for (const x of list) {
      expect(Array.isArray(x.tags)).toBe(true);
      expect(Number.isNaN(Date.parse(x.created_at))).toBe(false);
    }
    // The demo fleet: a model tag on every terminal, some canaries, versions reported, created when history starts.
    expect(list.every((x) => x.tags.some((tag) => tag.startsWith('model-')))).toBe(true);
    expect(list.filter((x) => x.tags.includes('canary')).length).toBeGreaterThan(0);
    expect(list.filter((x) => x.software_version !== null).length).toBeGreaterThan(0);
    const [history] = await t.database.query<{ first: Date | string }>(
      'select min(at) as first from telemetry',
    );
    const demo = list.filter((x) => x.created_at === list.at(-1)!.created_at);
    expect(demo.length).toBeGreaterThan(40);
    expect(Date.parse(demo[0].created_at)).toBeLessThanOrEqual(new Date(history.first).getTime());
  });

  it('PATCH sets the tags (lowercased, each once), audited and on the live feed; a new terminal may carry tags', async () => {
    const term = await newTerminal({ tags: ['Fresh'] });
    expect(term.tags).toEqual(['fresh']);
    expect(term.software_version).toBeNull();
    const before = await changesOf(term.id, 'fleet');
    const res = await as({
      method: 'PATCH',
      url: `/api/admin/terminals/${term.id}/`,
      payload: { tags: [' Canary ', 'model-x.1', 'canary', 'zone_b'] },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(AdminTerminalSchema.parse(res.json()).tags).toEqual(['canary', 'model-x.1', 'zone_b']);
    const again = AdminTerminalSchema.parse((await get(`/api/admin/terminals/${term.id}/`)).json());
    expect(again.tags).toEqual(['canary', 'model-x.1', 'zone_b']);
    expect(again.card_acceptor_name).toBe('Tag test');
    expect(await changesOf(term.id, 'fleet')).toBeGreaterThan(before);
    const audit = z
      .array(AuditEntrySchema)
      .parse((await get(`/api/admin/audit/?entity=terminal&entity_id=${term.id}`)).json());
    expect(audit[0]).toMatchObject({
      action: 'update',
      before: { tags: ['fresh'] },
      after: { tags: ['canary', 'model-x.1', 'zone_b'] },
    });
    const cleared = await as({
      method: 'PATCH',
      url: `/api/admin/terminals/${term.id}/`,
      payload: { tags: [] },
    });
    expect(AdminTerminalSchema.parse(cleared.json()).tags).toEqual([]);
  });

  it('answers 400 naming tags for anything but up to 20 labels of a-z 0-9 - _ .', async () => {
    const term = await newTerminal({ tags: ['keep'] });
    const cases: [unknown, string][] = [
      ['canary', 'tags must be a list of tags'],
      [['two words'], 'tags: "two words" is not a tag'],
      [['ümlaut'], 'tags: "ümlaut" is not a tag'],
      [[''], 'tags: "" is not a tag'],
      [['a'.repeat(33)], 'is not a tag (1–32 characters of a-z 0-9 - _ .)'],
      [[1], 'tags: "1" is not a tag'],
      [Array.from({ length: 21 }, (_, i) => `t${i}`), 'tags may hold at most 20 tags'],
    ];
    for (const [tags, message] of cases) {
      const res = await as({ method: 'PATCH', url: `/api/admin/terminals/${term.id}/`, payload: { tags } });
      expect(res.statusCode, JSON.stringify(tags)).toBe(400);
      expect(errorsOf(res).join(' | ')).toContain(message);
    }
    const bad = await as({
      method: 'POST',
      url: '/api/admin/terminals/',
      payload: { site_id: siteId, terminal_id: uniq('TT'), card_acceptor_name: 'x', tags: ['no way'] },
    });
    expect(bad.statusCode).toBe(400);
    expect(errorsOf(bad).join(' | ')).toContain('tags');
    expect(AdminTerminalSchema.parse((await get(`/api/admin/terminals/${term.id}/`)).json()).tags).toEqual([
      'keep',
    ]);
    const twenty = Array.from({ length: 20 }, (_, i) => `t${i}`);
    const ok = await as({
      method: 'PATCH',
      url: `/api/admin/terminals/${term.id}/`,
      payload: { tags: twenty },
    });
    expect(ok.statusCode).toBe(200);
  });

  it('lists filter with ?tag= (repeatable: all must match)', async () => {
    const label = uniq('f').toLowerCase();
    const both = await newTerminal({ tags: [label, 'second'] });
    const one = await newTerminal({ tags: [label] });
    await newTerminal({ tags: ['second'] });
    const ids = async (url: string) => TerminalList.parse((await get(url)).json()).map((x) => x.id);
    expect(await ids(`/api/admin/terminals/?tag=${label}`)).toEqual([one.id, both.id]);
    expect(await ids(`/api/admin/terminals/?tag=${label.toUpperCase()}`)).toEqual([one.id, both.id]);
    expect(await ids(`/api/admin/terminals/?tag=${label}&tag=second`)).toEqual([both.id]);
    expect(await ids(`/api/admin/terminals/?tag=${label}&site_id=${siteId}&limit_to=1`)).toEqual([one.id]);
    expect(await ids(`/api/admin/terminals/?tag=${label}&tag=nobody`)).toEqual([]);
    const bad = await get('/api/admin/terminals/?tag=not%20a%20tag');
    expect(bad.statusCode).toBe(400);
    expect(errorsOf(bad).join(' | ')).toContain('tag');
  });

  it('the CSV import takes an optional last column tags (;-separated); a bad tag is that row’s error', async () => {
    const header = 'company,site_number,site_title,lat,lng,timezone,terminal_id,pumps';
    const company = uniq('TagCo');
    const [t1, t2] = [uniq('CT'), uniq('CT')];
    const importCsv = (csv: string, dryRun: boolean) =>
      as({
        method: 'POST',
        url: `/api/admin/import/?dry_run=${dryRun}`,
        headers: { 'content-type': 'text/csv' },
        payload: csv,
      });
    const rows = (tags1: string, tags2: string) =>
      [
        `${header},tags`,
        `${company},1,North,53.8,-1.55,Europe/London,${t1},2,${tags1}`,
        `${company},1,North,53.8,-1.55,Europe/London,${t2},2,${tags2}`,
      ].join('\n');
    const bad = ImportResultSchema.parse(
      (await importCsv(rows('Canary;model-a', 'ok;not ok'), false)).json(),
    );
    expect(bad.errors).toBe(1);
    expect(bad.rows[1]).toMatchObject({ row: 3, action: 'error' });
    expect(bad.rows[1].errors.join(' | ')).toContain('tags: "not ok" is not a tag');
    expect(TerminalList.parse((await get(`/api/admin/terminals/?q=${t1}`)).json())).toEqual([]);

    const ok = ImportResultSchema.parse((await importCsv(rows('Canary;model-a', ''), false)).json());
    expect(ok).toMatchObject({ created: 2, errors: 0 });
    const tagsOf = async (no: string) =>
      TerminalList.parse((await get(`/api/admin/terminals/?q=${no}`)).json())[0].tags;
    expect(await tagsOf(t1)).toEqual(['canary', 'model-a']);
    expect(await tagsOf(t2)).toEqual([]);

    const same = ImportResultSchema.parse((await importCsv(rows('canary;model-a', ''), false)).json());
    expect(same).toMatchObject({ created: 0, updated: 0, unchanged: 2 });
    const retag = ImportResultSchema.parse((await importCsv(rows('model-b', 'x;y'), false)).json());
    expect(retag).toMatchObject({ updated: 2, unchanged: 0, errors: 0 });
    expect(await tagsOf(t1)).toEqual(['model-b']);
    expect(await tagsOf(t2)).toEqual(['x', 'y']);

    // Without the column, the terminals keep their tags.
    const plain = [header, `${company},1,North,53.8,-1.55,Europe/London,${t1},2`].join('\n');
    expect(ImportResultSchema.parse((await importCsv(plain, false)).json())).toMatchObject({ unchanged: 1 });
    expect(await tagsOf(t1)).toEqual(['model-b']);
  });

  it('site terminal rows carry tags and software_version; a device reports its version in telemetry', async () => {
    const term = await newTerminal({ tags: ['reporting'] });
    const token = await provisionDevice(t, agent, term.id);
    const rowOf = async () => {
      const res = await get(`/api/site/${siteId}/terminals/`);
      expect(res.statusCode).toBe(200);
      return z
        .array(SiteTerminalSchema)
        .parse(res.json())
        .find((x) => x.id === term.id)!;
    };
    expect(await rowOf()).toMatchObject({ tags: ['reporting'], software_version: null });

    const telemetryRows = async () =>
      Number(
        (
          await t.database.query<{ n: number | string }>(
            'select count(*) as n from telemetry where terminal_id = $1',
            [term.id],
          )
        )[0].n,
      );
    const fleetBefore = await changesOf(term.id, 'fleet');
    const res = await deviceCall(t, token, 'POST', 'telemetry', [
      { battery_life: 80, software_version: '5.0.0', at: '2026-11-27T10:00:00Z' },
      { software_version: '5.0.1-rc.2', at: '2026-11-27T10:05:00Z' },
    ]);
    expect(res.statusCode, res.body).toBe(202);
    expect(await telemetryRows()).toBe(1);
    expect(await changesOf(term.id, 'fleet')).toBe(fleetBefore + 1);
    expect(await rowOf()).toMatchObject({ software_version: '5.0.1-rc.2' });
    expect(
      AdminTerminalSchema.parse((await get(`/api/admin/terminals/${term.id}/`)).json()).software_version,
    ).toBe('5.0.1-rc.2');
    // The same version again changes nothing on the terminal.
    await deviceCall(t, token, 'POST', 'telemetry', { software_version: '5.0.1-rc.2' });
    expect(await changesOf(term.id, 'fleet')).toBe(fleetBefore + 1);

    for (const bad of ['', '   ', 'v'.repeat(65), 'line\nbreak', 42]) {
      const r = await deviceCall(t, token, 'POST', 'telemetry', [
        { battery_life: 50 },
        { software_version: bad },
      ]);
      expect(r.statusCode, JSON.stringify(bad)).toBe(400);
      expect(errorsOf(r).join(' | ')).toContain(
        '[1].software_version: software_version must be text of 1 to 64',
      );
    }
    expect(await telemetryRows()).toBe(1);
    expect((await rowOf()).software_version).toBe('5.0.1-rc.2');
  });
});
