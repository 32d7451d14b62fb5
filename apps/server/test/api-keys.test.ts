import { createHash } from 'node:crypto';
import type net from 'node:net';
import {
  API_KEY_PATTERN,
  API_KEY_TEXTS,
  type ApiKeyCreated,
  ApiKeyCreatedSchema,
  ApiKeySchema,
} from '@forecourt/contract/api-keys';
import { LIVE_PATH } from '@forecourt/contract/live';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { openFleetOnTwoNodes, type TwoNodeSession } from './fleet-fixture.ts';
import { postgresUnavailable, testDbKind } from './helper.ts';

const POLL = { timeout: 10_000, interval: 50 };
const sha256 = (v: string) => createHash('sha256').update(v).digest('hex');
const inSeconds = (s: number) => new Date(Date.now() + s * 1000).toISOString();

/**
 * API keys: made, listed and deleted by their user (signed in), acting as that user with its scope on every path,
 * read-only ones only reading, cut off at once on every node when deleted, expired or their user disabled. Two
 * nodes on one database (PostgreSQL: each with its own pool; PGlite: two apps on the one embedded database).
 */
describe.skipIf(postgresUnavailable)(`API keys (${testDbKind})`, () => {
  let { t, b, nodeB, f, close } = {} as TwoNodeSession;
  let jwt: { agent: string; company: string; site: string };

  const withKey = (node: FastifyInstance, key: string, opts: InjectOptions, scheme = 'ApiKey') =>
    node.inject({ ...opts, headers: { ...(opts.headers ?? {}), authorization: `${scheme} ${key}` } });
  const getWithKey = (node: FastifyInstance, key: string, url: string, scheme?: string) =>
    withKey(node, key, { method: 'GET', url }, scheme);
  const create = async (who: string, body: Record<string, unknown>): Promise<ApiKeyCreated> => {
    const res = await t.as(who, { method: 'POST', url: '/api/api-keys/', payload: body });
    expect(res.statusCode, res.body).toBe(201);
    return ApiKeyCreatedSchema.strict().parse(res.json());
  };
  const list = async (who: string) => {
    const res = await t.get(who, '/api/api-keys/');
    expect(res.statusCode, res.body).toBe(200);
    return z.array(ApiKeySchema.strict()).parse(res.json());
  };
  const remove = (who: string, id: number) => t.as(who, { method: 'DELETE', url: `/api/api-keys/${id}/` });
  /** Waits until node B's change feed has passed every change written so far. */
  const bCaughtUp = () => nodeB.caughtUp();

  beforeAll(async () => {
    const s = await openFleetOnTwoNodes({ settleCommands: true });
    ({ t, b, nodeB, f, close } = s);
    jwt = s;
  }, 180_000);
  afterAll(async () => close?.());

  it('makes a key whose token is answered once and stored only as its sha-256; lists it without the token', async () => {
    const created = await create(jwt.company, { name: '  Stock system  ' });
    expect(created.token).toMatch(API_KEY_PATTERN);
    expect(created).toMatchObject({
      name: 'Stock system',
      prefix: created.token.slice(0, 12),
      read_only: false,
      last_used_at: null,
      expires_at: null,
    });
    const [stored] = await t.database.query<Record<string, unknown>>('select * from api_keys where id = $1', [
      created.id,
    ]);
    expect(stored!.token_hash).toBe(sha256(created.token));
    expect(JSON.stringify(stored)).not.toContain(created.token);

    const listed = await list(jwt.company);
    const { token: _token, ...shown } = created;
    expect(listed[0]).toEqual(shown);
    // Another user's list does not show it.
    expect((await list(jwt.site)).map((k) => k.id)).not.toContain(created.id);
  });

  it('acts as its user with the user’s scope (ApiKey and Bearer), and records its last use at most once a minute', async () => {
    const key = await create(jwt.company, { name: 'Reader' });
    const me = await getWithKey(t.app, key.token, '/api/user/');
    expect(me.statusCode, me.body).toBe(200);
    expect(me.json().username).toBe('company');
    for (const scheme of ['ApiKey', 'Bearer']) {
      expect(
        (await getWithKey(t.app, key.token, `/api/site/detail/${f.companySite.siteId}/`, scheme)).statusCode,
      ).toBe(200);
      expect(
        (await getWithKey(t.app, key.token, `/api/site/detail/${f.otherCompanySite.siteId}/`, scheme))
          .statusCode,
      ).toBe(403);
    }
    // `JWT` carries session tokens only; an unknown key is 401.
    expect((await getWithKey(t.app, key.token, '/api/user/', 'JWT')).statusCode).toBe(401);
    const unknown = await getWithKey(t.app, `fck_${'A'.repeat(43)}`, '/api/user/');
    expect(unknown.statusCode).toBe(401);
    expect(unknown.json().data.errors).toEqual([API_KEY_TEXTS.unknown]);

    const lastUsed = async () => {
      const [row] = await t.database.query<{ last_used_at: Date | string | null }>(
        'select last_used_at from api_keys where id = $1',
        [key.id],
      );
      return row!.last_used_at === null ? null : new Date(row!.last_used_at).toISOString();
    };
    const first = await lastUsed();
    expect(first).not.toBeNull();
    expect((await list(jwt.company)).find((k) => k.id === key.id)?.last_used_at).toBe(first);
    // Within the minute, more uses write nothing.
    for (const node of [b, t.app, b])
      expect((await getWithKey(node, key.token, '/api/user/')).statusCode).toBe(200);
    expect(await lastUsed()).toBe(first);
  });

  it('a full key writes; a read-only key reads and gets 403 on every other method, whatever the body', async () => {
    const full = await create(jwt.company, { name: 'Writer' });
    const put = await withKey(t.app, full.token, {
      method: 'PUT',
      url: '/api/user/notifications/',
      payload: { email_min_severity: null },
    });
    expect(put.statusCode, put.body).toBe(200);

    const reader = await create(jwt.company, { name: 'Dashboard', read_only: true });
    expect(reader.read_only).toBe(true);
    expect(
      (await getWithKey(t.app, reader.token, `/api/site/detail/${f.companySite.siteId}/`)).statusCode,
    ).toBe(200);
    expect((await withKey(t.app, reader.token, { method: 'HEAD', url: '/api/user/' })).statusCode).toBe(200);
    for (const [method, url, payload] of [
      ['PUT', '/api/user/notifications/', { email_min_severity: 'major' }],
      ['POST', `/api/pump/${f.companySite.pump.id}/turn/on/`, {}],
      ['POST', `/api/terminal/${f.companySite.terminalId}/reboot/`, { reboot_type: 'nonsense' }],
      ['POST', '/api/zendesk/ticket/', {}],
      ['POST', '/api/rules/', {}],
      ['DELETE', '/api/maintenance/1/', undefined],
    ] as const) {
      const res = await withKey(t.app, reader.token, { method, url, payload }, 'Bearer');
      expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(403);
      expect(res.json().data.errors).toEqual([API_KEY_TEXTS.readOnlyKey]);
    }
  });

  it('answers 400 naming every bad field', async () => {
    const bad = async (body: unknown) => {
      const res = await t.as(jwt.agent, { method: 'POST', url: '/api/api-keys/', payload: body as object });
      expect(res.statusCode, res.body).toBe(400);
      return res.json().data.errors as string[];
    };
    expect(await bad({})).toEqual([API_KEY_TEXTS.name]);
    expect(await bad({ name: '   ' })).toEqual([API_KEY_TEXTS.name]);
    expect(await bad({ name: 'x'.repeat(101) })).toEqual([API_KEY_TEXTS.nameLong]);
    expect(await bad({ name: 'ok', expires_at: 'tomorrow' })).toEqual([API_KEY_TEXTS.expiresAt]);
    expect(await bad({ name: 'ok', expires_at: inSeconds(-60) })).toEqual([API_KEY_TEXTS.expiresPast]);
    expect(await bad({ name: 1, read_only: 'yes', expires_at: 5 })).toEqual([
      API_KEY_TEXTS.name,
      API_KEY_TEXTS.readOnly,
      API_KEY_TEXTS.expiresAt,
    ]);
    expect((await bad({ name: 'ok', token: 'mine' })).join()).toMatch(/token/);
  });

  it('an expired key gets 401', async () => {
    const key = await create(jwt.site, { name: 'Short', expires_at: inSeconds(1.5) });
    expect((await getWithKey(t.app, key.token, '/api/user/')).statusCode).toBe(200);
    await expect
      .poll(async () => (await getWithKey(t.app, key.token, '/api/user/')).statusCode, POLL)
      .toBe(401);
    const res = await getWithKey(t.app, key.token, '/api/user/');
    expect(res.json().data.errors).toEqual([API_KEY_TEXTS.expired]);
  });

  it('keys cannot manage keys, nor change the password, the profile or their own account', async () => {
    const key = await create(jwt.agent, { name: 'Integrator' });
    const [{ id: agentUserId }] = await t.database.query<{ id: number }>(
      "select id from users where username = 'agent'",
    );
    for (const [method, url, payload] of [
      ['GET', '/api/api-keys/', undefined],
      ['POST', '/api/api-keys/', { name: 'Another' }],
      ['DELETE', `/api/api-keys/${key.id}/`, undefined],
      [
        'POST',
        '/api/user/change/password/',
        { current_password: 'demo1234', password: 'x1234', confirmPassword: 'x1234' },
      ],
      ['POST', '/api/user/update/', { email: 'taken@example.com', current_password: 'demo1234' }],
      ['PATCH', `/api/admin/users/${agentUserId}/`, { email: 'taken@example.com' }],
    ] as const) {
      const res = await withKey(t.app, key.token, { method, url, payload });
      expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(403);
    }
    // Still the key, and the account as it was.
    expect((await list(jwt.agent)).map((k) => k.id)).toContain(key.id);
    expect((await t.get(jwt.agent, '/api/user/')).json().email).not.toBe('taken@example.com');
  });

  it('deletes only the user’s own keys; creating and deleting are audited without the token', async () => {
    const key = await create(jwt.company, { name: 'Audited', read_only: true });
    expect((await remove(jwt.site, key.id)).statusCode).toBe(404);
    expect((await remove(jwt.company, 999_999)).statusCode).toBe(404);
    expect((await remove(jwt.company, Number.NaN)).statusCode).toBe(404);
    const res = await remove(jwt.company, key.id);
    expect(res.statusCode, res.body).toBe(200);
    expect(ApiKeySchema.strict().parse(res.json()).id).toBe(key.id);
    expect((await remove(jwt.company, key.id)).statusCode).toBe(404);

    // The company user's agent reads both entries.
    const audit = await t.get(jwt.agent, `/api/admin/audit/?entity=api_key&user=company`);
    expect(audit.statusCode, audit.body).toBe(200);
    const entries = (audit.json() as Array<Record<string, unknown>>).filter((e) => e.entity_id === key.id);
    expect(entries.map((e) => e.action)).toEqual(['delete', 'create']);
    expect(entries[1]).toMatchObject({ user: 'company', entity: 'api_key', before: null });
    expect(entries[1]!.after).toMatchObject({
      id: key.id,
      name: 'Audited',
      prefix: key.prefix,
      read_only: true,
    });
    expect(entries[0]).toMatchObject({ after: null, before: { id: key.id, name: 'Audited' } });
    const text = JSON.stringify(entries);
    expect(text).not.toContain(key.token);
    expect(text).not.toContain(sha256(key.token));
  });

  it('a deleted key gets 401 at once on this node and, through the feed, on a second node', async () => {
    const key = await create(jwt.agent, { name: 'Two nodes' });
    // Both nodes have looked the key up (and cached it).
    expect((await getWithKey(t.app, key.token, '/api/user/')).statusCode).toBe(200);
    expect((await getWithKey(b, key.token, '/api/user/')).statusCode).toBe(200);
    expect((await remove(jwt.agent, key.id)).statusCode).toBe(200);
    expect((await getWithKey(t.app, key.token, '/api/user/')).statusCode).toBe(401);
    await bCaughtUp();
    expect((await getWithKey(b, key.token, '/api/user/')).statusCode).toBe(401);
  });

  it('opens /api/live with a key; the stream ends when the key is deleted', async () => {
    const key = await create(jwt.company, { name: 'Live' });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(t.app.server.address() as net.AddressInfo).port}`;
    const abort = new AbortController();
    const res = await fetch(`${base}${LIVE_PATH}`, {
      headers: { authorization: `ApiKey ${key.token}` },
      signal: abort.signal,
    });
    try {
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
      const reader = res.body!.getReader();
      const first = await reader.read();
      expect(new TextDecoder().decode(first.value)).toMatch(/^retry: \d+/);
      expect((await remove(jwt.company, key.id)).statusCode).toBe(200);
      // The server ends the stream: the reader reaches its end.
      for (;;) if ((await reader.read()).done) break;
    } finally {
      abort.abort();
    }
  });

  it('a disabled user’s keys get 401 on every node, and stay refused once it is enabled again', async () => {
    const key = await create(jwt.site, { name: 'Until disabled' });
    expect((await getWithKey(t.app, key.token, '/api/user/')).statusCode).toBe(200);
    expect((await getWithKey(b, key.token, '/api/user/')).statusCode).toBe(200);
    const [{ id }] = await t.database.query<{ id: number }>("select id from users where username = 'site'");
    const disable = (disabled: boolean) =>
      t.as(jwt.agent, { method: 'PATCH', url: `/api/admin/users/${id}/`, payload: { disabled } });
    expect((await disable(true)).statusCode).toBe(200);
    expect((await getWithKey(t.app, key.token, '/api/user/')).statusCode).toBe(401);
    await bCaughtUp();
    expect((await getWithKey(b, key.token, '/api/user/')).statusCode).toBe(401);
    expect((await disable(false)).statusCode).toBe(200);
    await bCaughtUp();
    for (const node of [t.app, b]) {
      const res = await getWithKey(node, key.token, '/api/user/');
      expect(res.statusCode).toBe(401);
      expect(res.json().data.errors).toEqual([API_KEY_TEXTS.beforeDisable]);
    }
  });
});
