import { AUTH_TEXTS, AuthResultSchema, decodeJwt } from '@forecourt/contract/auth';
import { ErrorBodySchema } from '@forecourt/contract/common';
import {
  AVATAR_TEXTS,
  CurrentUserSchema,
  PROFILE_TEXTS,
  UserSitesResponseSchema,
} from '@forecourt/contract/users';
import { MESSAGES } from '@forecourt/contract/validation';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REMEMBER_ME_TTL_S, SESSION_TTL_S } from '../src/services/tokens.ts';
import { buildTestApp, postgresUnavailable, type TestApp } from './helper.ts';
import { type OrgFixture, orgFixture } from './org-fixtures.ts';

const PNG_1PX = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

const errorsOf = (res: { json(): unknown }) => ErrorBodySchema.parse(res.json()).data.errors;

describe.skipIf(postgresUnavailable)('current user', () => {
  let t: TestApp;
  let org: OrgFixture;
  let counter = 0;

  /** A fresh account (so tests that change it leave the demo users alone). */
  async function newUser(password = 'start-pass', rememberMe = true) {
    const email = `person${counter++}@users.example`;
    const reg = await t.app.inject({
      method: 'POST',
      url: '/api/auth/register',
      payload: { email, name: 'Pat Person', password },
    });
    expect(reg.statusCode).toBe(200);
    const username = decodeJwt(AuthResultSchema.parse(reg.json()).token!).username!;
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { username, password, rememberMe },
      remoteAddress: `10.2.0.${counter}`,
    });
    return { email, username, password, token: AuthResultSchema.parse(login.json()).token! };
  }

  const as = (token: string, opts: InjectOptions) => t.as(token, opts);
  const me = async (token: string) => {
    const res = await as(token, { method: 'GET', url: '/api/user/' });
    expect(res.statusCode).toBe(200);
    return CurrentUserSchema.parse(res.json());
  };

  beforeAll(async () => {
    t = await buildTestApp();
    org = await orgFixture(t.database);
  });
  afterAll(async () => t?.close());

  describe('GET /api/user/', () => {
    it('gives the agent its agent id and every company of the agent', async () => {
      const user = await me(await t.login('agent'));
      const companies = await t.database.query<{ id: number; name: string }>(
        'select id, name from companies where agent_id = $1 order by id',
        [org.agentId],
      );
      expect(user.username).toBe('agent');
      expect(user.agent).toBe(org.agentId);
      expect(user.agent).toBeGreaterThan(0);
      expect(user.companies).toEqual(companies);
      expect(user.companies.length).toBeGreaterThan(1);
      expect(user).toHaveProperty('email');
      expect(user).toHaveProperty('avatar');
      expect(user).toHaveProperty('picture');
    });

    it('gives a company user no agent and exactly its companies', async () => {
      const user = await me(await t.login('company'));
      const linked = await t.database.query<{ id: number; name: string }>(
        `select c.id, c.name from companies c join user_companies uc on uc.company_id = c.id
          join users u on u.id = uc.user_id where u.username = 'company' order by c.id`,
      );
      expect(user.agent).toBeNull();
      expect(user.companies).toEqual(linked);
      expect(user.companies.map((c) => c.id)).toContain(org.companyId);
      expect(user.companies.map((c) => c.id)).not.toContain(org.otherCompanyId);
    });

    it('gives a site user no agent, no company and its sites with title and number', async () => {
      const user = await me(await t.login('site'));
      const site = (
        await t.database.query<{ id: number; title: string; number: string }>(
          'select id, title, number from sites where id = $1',
          [org.siteId],
        )
      )[0];
      expect(user.agent).toBeNull();
      expect(user.companies).toEqual([]);
      expect(user.sites).toContainEqual(site);
    });

    it('answers 401 without a valid token', async () => {
      const res = await t.app.inject({ method: 'GET', url: '/api/user/' });
      expect(res.statusCode).toBe(401);
      expect(errorsOf(res).length).toBe(1);
    });
  });

  describe('GET /api/user/sites/', () => {
    it('lists every site of the agent by id, bounded by limit_to', async () => {
      const token = await t.login('agent');
      const all = await t.database.query<{ id: number; title: string; number: string }>(
        'select id, title, number from sites where agent_id = $1 order by id',
        [org.agentId],
      );
      const res = await as(token, { method: 'GET', url: '/api/user/sites/' });
      expect(res.statusCode).toBe(200);
      expect(UserSitesResponseSchema.parse(res.json())).toEqual(all.slice(0, 100));
      const five = await as(token, { method: 'GET', url: '/api/user/sites/?limit_to=5' });
      expect(UserSitesResponseSchema.parse(five.json())).toEqual(all.slice(0, 5));
    });

    it("lists a company user's company sites and a site user's own sites only", async () => {
      const companySites = UserSitesResponseSchema.parse(
        (await as(await t.login('company'), { method: 'GET', url: '/api/user/sites/' })).json(),
      ).map((s) => s.id);
      const expected = await t.database.query<{ id: number }>(
        `select s.id from sites s join user_companies uc on uc.company_id = s.company_id
          join users u on u.id = uc.user_id where u.username = 'company'
         union select us.site_id from user_sites us join users u on u.id = us.user_id where u.username = 'company'
         order by 1`,
      );
      expect(companySites).toEqual(expected.map((r) => r.id));
      expect(companySites).toContain(org.companySiteId);
      expect(companySites).not.toContain(org.otherCompanySiteId);

      const siteSites = UserSitesResponseSchema.parse(
        (await as(await t.login('site'), { method: 'GET', url: '/api/user/sites/' })).json(),
      ).map((s) => s.id);
      expect(siteSites).toContain(org.siteId);
      expect(siteSites).not.toContain(org.companySiteId);
      expect(siteSites).not.toContain(org.outsider.siteId);
    });

    it('refuses a bad limit_to with 400', async () => {
      const token = await t.login('agent');
      for (const q of ['0', '1001', 'many']) {
        const res = await as(token, { method: 'GET', url: `/api/user/sites/?limit_to=${q}` });
        expect(res.statusCode).toBe(400);
        expect(errorsOf(res).join(' ')).toMatch(/limit_to/);
      }
    });
  });

  describe('POST /api/user/update/', () => {
    it('changes name (fullName wins over name) and email, and ignores fields it does not own', async () => {
      const u = await newUser();
      const res = await as(u.token, {
        method: 'POST',
        url: '/api/user/update/',
        payload: {
          name: 'Ignored Name',
          fullName: 'Patricia Person',
          email: 'pat.new@users.example',
          current_password: u.password,
          id: 1,
          username: 'root',
        },
      });
      expect(res.statusCode).toBe(200);
      const updated = CurrentUserSchema.parse(res.json());
      expect(updated).toMatchObject({
        name: 'Patricia Person',
        email: 'pat.new@users.example',
        username: u.username,
      });
      expect(await me(u.token)).toEqual(updated);
      const byNewEmail = await t.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { username: 'pat.new@users.example', password: u.password },
      });
      expect(byNewEmail.statusCode).toBe(200);
    });

    it("refuses another user's email with 409 and bad values with 400 naming them", async () => {
      const u = await newUser();
      const taken = await as(u.token, {
        method: 'POST',
        url: '/api/user/update/',
        payload: { email: 'AGENT@forecourt.local' },
      });
      expect(taken.statusCode).toBe(409);
      expect(errorsOf(taken)).toEqual([PROFILE_TEXTS.emailTaken]);
      const badEmail = await as(u.token, {
        method: 'POST',
        url: '/api/user/update/',
        payload: { email: 'nope' },
      });
      expect(badEmail.statusCode).toBe(400);
      expect(errorsOf(badEmail)).toEqual([MESSAGES.emailPattern]);
      const shortName = await as(u.token, {
        method: 'POST',
        url: '/api/user/update/',
        payload: { name: 'Al' },
      });
      expect(errorsOf(shortName)).toEqual([MESSAGES.fullNameLength]);
      const wrongType = await as(u.token, {
        method: 'POST',
        url: '/api/user/update/',
        payload: { email: 42 },
      });
      expect(wrongType.statusCode).toBe(400);
      expect((await me(u.token)).email).toBe(u.email);
    });

    it('stores an uploaded image and serves it from the avatar path', async () => {
      const u = await newUser();
      const res = await as(u.token, {
        method: 'POST',
        url: '/api/user/update/',
        payload: { avatar: `data:image/png;base64,${PNG_1PX.toString('base64')}` },
      });
      expect(res.statusCode).toBe(200);
      const { avatar, picture, id } = CurrentUserSchema.parse(res.json());
      expect(avatar).toMatch(new RegExp(`^/api/user/avatar/${id}/\\?v=\\w+$`));
      expect(picture).toBe(avatar);
      const image = await t.app.inject({ method: 'GET', url: avatar! });
      expect(image.statusCode).toBe(200);
      expect(image.headers['content-type']).toBe('image/png');
      expect(image.rawPayload.equals(PNG_1PX)).toBe(true);
      const cached = await t.app.inject({
        method: 'GET',
        url: avatar!,
        headers: { 'if-none-match': String(image.headers.etag) },
      });
      expect(cached.statusCode).toBe(304);
    });

    it('keeps a path avatar as given and removes the avatar with null', async () => {
      const u = await newUser();
      const set = await as(u.token, {
        method: 'POST',
        url: '/api/user/update/',
        payload: { avatar: '/assets/images/pat.png' },
      });
      expect(CurrentUserSchema.parse(set.json()).avatar).toBe('/assets/images/pat.png');
      const cleared = await as(u.token, {
        method: 'POST',
        url: '/api/user/update/',
        payload: { avatar: null },
      });
      expect(CurrentUserSchema.parse(cleared.json()).avatar).toBeNull();
    });

    it('refuses avatars that are not images or too large', async () => {
      const u = await newUser();
      const cases: [unknown, string][] = [
        [
          `data:image/png;base64,${Buffer.from('<svg onload=alert(1)>').toString('base64')}`,
          AVATAR_TEXTS.invalid,
        ],
        ['javascript:alert(1)', AVATAR_TEXTS.invalid],
        ['data:text/html;base64,PGgxPg==', AVATAR_TEXTS.invalid],
        [
          `data:image/png;base64,${Buffer.concat([PNG_1PX, Buffer.alloc(600 * 1024)]).toString('base64')}`,
          AVATAR_TEXTS.tooLarge,
        ],
      ];
      for (const [avatar, message] of cases) {
        const res = await as(u.token, { method: 'POST', url: '/api/user/update/', payload: { avatar } });
        expect(res.statusCode).toBe(400);
        expect(errorsOf(res)).toEqual([message]);
      }
      expect((await me(u.token)).avatar).toBeNull();
    });

    it('answers 404 for an avatar that does not exist', async () => {
      for (const url of ['/api/user/avatar/999999/', '/api/user/avatar/abc/']) {
        expect((await t.app.inject({ method: 'GET', url })).statusCode).toBe(404);
      }
    });

    it('answers 401 before looking at the body', async () => {
      const res = await t.app.inject({ method: 'POST', url: '/api/user/update/', payload: { email: 'bad' } });
      expect(res.statusCode).toBe(401);
    });
  });

  describe('POST /api/user/change/password/', () => {
    it('answers the password rules of docs/product.md#validation-rules', async () => {
      const u = await newUser();
      const cases: [Record<string, unknown>, string][] = [
        [{ confirmPassword: 'x' }, MESSAGES.passwordRequired],
        [{ password: 'abc', confirmPassword: 'abc' }, MESSAGES.passwordLength],
        [{ password: 'y'.repeat(51), confirmPassword: 'y'.repeat(51) }, MESSAGES.passwordLength],
        [{ password: 'good-pass' }, MESSAGES.confirmRequired],
        [{ password: 'good-pass', confirmPassword: 'good-pasz' }, MESSAGES.confirmMismatch],
      ];
      for (const [payload, message] of cases) {
        const res = await as(u.token, { method: 'POST', url: '/api/user/change/password/', payload });
        expect(res.statusCode, JSON.stringify(payload)).toBe(400);
        expect(errorsOf(res)).toContain(message);
      }
    });

    it('refuses a wrong old password', async () => {
      const u = await newUser();
      const res = await as(u.token, {
        method: 'POST',
        url: '/api/user/change/password/',
        payload: { old_password: 'not-it', password: 'next-pass', confirmPassword: 'next-pass' },
      });
      expect(res.statusCode).toBe(400);
      expect(errorsOf(res)).toEqual([PROFILE_TEXTS.oldPasswordWrong]);
      expect((await as(u.token, { method: 'GET', url: '/api/user/' })).statusCode).toBe(200);
    });

    it('changes the password and answers a fresh token; the old token and password stop working', async () => {
      const u = await newUser('first-pass', false);
      const res = await as(u.token, {
        method: 'POST',
        url: '/api/user/change/password/',
        payload: { oldPassword: 'first-pass', password: 'second-pass', confirmPassword: 'second-pass' },
      });
      expect(res.statusCode).toBe(200);
      const body = AuthResultSchema.parse(res.json());
      expect(body.data.messages).toEqual([AUTH_TEXTS.passwordChanged]);
      const claims = decodeJwt(body.token!);
      expect(claims.exp! - claims.iat!).toBe(SESSION_TTL_S);
      expect((await me(body.token!)).username).toBe(u.username);
      expect((await as(u.token, { method: 'GET', url: '/api/user/' })).statusCode).toBe(401);
      const login = (password: string) =>
        t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { username: u.username, password } });
      expect((await login('second-pass')).statusCode).toBe(200);
      expect((await login('first-pass')).statusCode).toBe(401);
    });

    it('needs the current password (400 naming current_password) and keeps a remember-me session long', async () => {
      const u = await newUser('first-pass', true);
      const missing = await as(u.token, {
        method: 'POST',
        url: '/api/user/change/password/',
        payload: { password: 'other-pass', confirmPassword: 'other-pass' },
      });
      expect(missing.statusCode).toBe(400);
      expect(errorsOf(missing)).toEqual([`current_password: ${PROFILE_TEXTS.currentPasswordRequired}`]);
      const res = await as(u.token, {
        method: 'POST',
        url: '/api/user/change/password/',
        payload: { current_password: 'first-pass', password: 'other-pass', confirmPassword: 'other-pass' },
      });
      expect(res.statusCode).toBe(200);
      const claims = decodeJwt(AuthResultSchema.parse(res.json()).token!);
      expect(claims.exp! - claims.iat!).toBe(REMEMBER_ME_TTL_S);
    });
  });
});
