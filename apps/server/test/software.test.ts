import { createHash, randomBytes } from 'node:crypto';
import { AuditEntrySchema } from '@forecourt/contract/admin';
import { ErrorBodySchema } from '@forecourt/contract/common';
import { SoftwarePackageSchema } from '@forecourt/contract/software';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type FleetFixture, fleetFixture, provisionDevice } from './fleet-fixture.ts';
import { buildTestApp, postgresUnavailable, type TestApp } from './helper.ts';
import { postPackage, uploadPackage } from './software-upload.ts';

const errorsOf = (res: { json(): unknown }) => ErrorBodySchema.parse(res.json()).data.errors;
const MiB = 1024 * 1024;
const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/** Software packages (docs/rollouts.md): streamed uploads with their limit and digest, device downloads by range. */
describe.skipIf(postgresUnavailable)('software packages', () => {
  let t: TestApp;
  let f: FleetFixture;
  let agent: string;
  let company: string;
  let site: string;
  let device: string;
  let outsiderDevice: string;
  /** Three pieces of storage and a bit: a range may span them. */
  const big = randomBytes(2 * MiB + 12_345);

  const get = (url: string, token = agent) => t.get(token, url);
  const download = (id: number, headers: Record<string, string> = {}, token: string | null = device) =>
    t.app.inject({
      method: 'GET',
      url: `/api/device/v1/software/${id}`,
      headers: { ...(token ? { authorization: `Device ${token}` } : {}), ...headers },
    });

  beforeAll(async () => {
    t = await buildTestApp({ PACKAGE_MAX_MB: '3' });
    f = await fleetFixture(t.database);
    ({ agent, company, site } = await t.demoTokens());
    device = await provisionDevice(t, agent, f.plainTerminalId);
    const [outsiderAgent] = await t.database.query<{ id: number }>(
      `select agent_id as id from terminals where id = $1`,
      [f.outsider.terminalId],
    );
    expect(outsiderAgent).toBeTruthy();
    // The outsider's terminal gets a token straight in the table: no demo user reaches it.
    outsiderDevice = `fcd_${randomBytes(32).toString('base64url')}`;
    await t.database.query(
      'insert into device_tokens (terminal_id, token_hash) values ($1, $2) on conflict (terminal_id) do update set token_hash = excluded.token_hash',
      [f.outsider.terminalId, createHash('sha256').update(outsiderDevice, 'utf8').digest('hex')],
    );
  });
  afterAll(async () => t?.close());

  it('stores an upload in pieces with its size and sha-256, and lists and reads it', async () => {
    const res = await postPackage(
      t,
      agent,
      { name: 'Terminal firmware', version: '5.0.0', kind: 'software' },
      big,
    );
    expect(res.statusCode, res.body).toBe(201);
    const pkg = SoftwarePackageSchema.parse(res.json());
    expect(pkg).toMatchObject({
      name: 'Terminal firmware',
      version: '5.0.0',
      kind: 'software',
      size: big.length,
    });
    expect(pkg.sha256).toBe(sha256(big));
    expect(Date.parse(pkg.created_at)).toBeGreaterThan(Date.now() - 60_000);
    const pieces = await t.database.query<{ n: number | string }>(
      'select count(*) as n from software_chunks where package_id = $1',
      [pkg.id],
    );
    expect(Number(pieces[0].n)).toBe(3);
    const list = z.array(SoftwarePackageSchema).parse((await get('/api/software/')).json());
    expect(list[0]).toEqual(pkg);
    expect(SoftwarePackageSchema.parse((await get(`/api/software/${pkg.id}/`)).json())).toEqual(pkg);
    // The fields may come after the file, and kind may be config.
    const cfg = await postPackage(
      t,
      agent,
      { name: 'Prices', version: 'cfg-7', kind: 'config' },
      Buffer.from('x=1'),
    );
    expect(cfg.statusCode, cfg.body).toBe(201);
    expect(cfg.json()).toMatchObject({ kind: 'config', size: 3, sha256: sha256(Buffer.from('x=1')) });
  });

  it('refuses a file over PACKAGE_MAX_MB with 413 and the error body, keeping nothing', async () => {
    const before = await t.database.query<{ n: number | string }>(
      'select count(*) as n from software_chunks',
    );
    const res = await postPackage(
      t,
      agent,
      { name: 'Too big', version: '6.0.0', kind: 'software' },
      randomBytes(3 * MiB + 1),
    );
    expect(res.statusCode).toBe(413);
    expect(errorsOf(res)).toEqual(['file is larger than 3 MiB (PACKAGE_MAX_MB)']);
    const after = await t.database.query<{ n: number | string }>('select count(*) as n from software_chunks');
    expect(Number(after[0].n)).toBe(Number(before[0].n));
    const rows = await t.database.query(`select id from software_packages where state = 'uploading'`);
    expect(rows).toHaveLength(0);
    const list = z.array(SoftwarePackageSchema).parse((await get('/api/software/')).json());
    expect(list.some((p) => p.name === 'Too big')).toBe(false);
    // Exactly the limit is fine.
    const edge = await postPackage(t, agent, { name: 'Edge', version: '6.0.1' }, randomBytes(3 * MiB));
    expect(edge.statusCode, edge.body).toBe(201);
  });

  it('answers 400 naming every bad field, and without a file', async () => {
    const bad = await postPackage(t, agent, { name: '', version: '', kind: 'firmware' }, Buffer.from('abc'));
    expect(bad.statusCode).toBe(400);
    const text = errorsOf(bad).join('\n');
    for (const field of ['name', 'version', 'kind']) expect(text, field).toContain(field);
    const noFile = await postPackage(t, agent, { name: 'x', version: '1' });
    expect(noFile.statusCode).toBe(400);
    expect(errorsOf(noFile)[0]).toMatch(/^file is required/);
    const json = await t.as(agent, { method: 'POST', url: '/api/software/', payload: { name: 'x' } });
    expect(json.statusCode).toBe(400);
    expect(await t.database.query(`select id from software_packages where state = 'uploading'`)).toHaveLength(
      0,
    );
  });

  it('is for agents only: company and site users get 403', async () => {
    const pkg = await uploadPackage(t, agent, '7.0.0');
    for (const token of [company, site]) {
      expect((await postPackage(t, token, { name: 'x', version: '1' }, Buffer.from('a'))).statusCode).toBe(
        403,
      );
      expect((await get('/api/software/', token)).statusCode).toBe(403);
      expect((await get(`/api/software/${pkg.id}/`, token)).statusCode).toBe(403);
      expect((await t.as(token, { method: 'DELETE', url: `/api/software/${pkg.id}/` })).statusCode).toBe(403);
    }
    expect((await t.app.inject({ method: 'GET', url: '/api/software/' })).statusCode).toBe(401);
    expect((await get('/api/software/999999/')).statusCode).toBe(404);
    expect((await get('/api/software/abc/')).statusCode).toBe(404);
  });

  it('serves devices the package with their token: whole, by range across pieces, 416 past the end', async () => {
    const res = await postPackage(t, agent, { name: 'Ranged', version: '8.0.0' }, big);
    const pkg = SoftwarePackageSchema.parse(res.json());
    expect((await download(pkg.id, {}, null)).statusCode).toBe(401);
    expect((await download(pkg.id, {}, 'fcd_not-a-real-token-at-all')).statusCode).toBe(401);
    const whole = await download(pkg.id);
    expect(whole.statusCode).toBe(200);
    expect(whole.headers['accept-ranges']).toBe('bytes');
    expect(whole.headers['content-type']).toBe('application/octet-stream');
    expect(Number(whole.headers['content-length'])).toBe(big.length);
    expect(sha256(whole.rawPayload)).toBe(pkg.sha256);

    const start = MiB - 100;
    const end = 2 * MiB + 99;
    const part = await download(pkg.id, { range: `bytes=${start}-${end}` });
    expect(part.statusCode).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes ${start}-${end}/${big.length}`);
    expect(part.rawPayload.equals(big.subarray(start, end + 1))).toBe(true);
    // A broken download resumes from where it stopped.
    const rest = await download(pkg.id, { range: `bytes=${start}-` });
    expect(rest.statusCode).toBe(206);
    expect(rest.rawPayload.equals(big.subarray(start))).toBe(true);
    const tail = await download(pkg.id, { range: 'bytes=-10' });
    expect(tail.rawPayload.equals(big.subarray(big.length - 10))).toBe(true);
    const past = await download(pkg.id, { range: `bytes=${big.length}-` });
    expect(past.statusCode).toBe(416);
    expect(past.headers['content-range']).toBe(`bytes */${big.length}`);
    expect(errorsOf(past)[0]).toMatch(/Range not satisfiable/);
    // Another agent's terminal does not get it.
    expect((await download(pkg.id, {}, outsiderDevice)).statusCode).toBe(404);
  });

  it('deletes a package (audited): it leaves every read and its bytes go', async () => {
    const pkg = await uploadPackage(t, agent, '9.1.0');
    const del = await t.as(agent, { method: 'DELETE', url: `/api/software/${pkg.id}/` });
    expect(del.statusCode, del.body).toBe(200);
    expect(SoftwarePackageSchema.parse(del.json())).toEqual(pkg);
    expect((await get(`/api/software/${pkg.id}/`)).statusCode).toBe(404);
    expect((await download(pkg.id)).statusCode).toBe(404);
    const pieces = await t.database.query('select 1 from software_chunks where package_id = $1', [pkg.id]);
    expect(pieces).toHaveLength(0);
    const audit = z
      .array(AuditEntrySchema)
      .parse((await get(`/api/admin/audit/?entity=software_package&entity_id=${pkg.id}`)).json());
    expect(audit.map((e) => e.action)).toEqual(['delete', 'create']);
    expect(audit[1]).toMatchObject({ user: 'agent', entity: 'software_package', entity_id: pkg.id });
  });
});
