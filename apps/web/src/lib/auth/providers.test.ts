import { beforeEach, describe, expect, it } from 'vitest';
import { json, mockFetch } from '../../testing/fetch-mock.ts';
import './builtin-providers.ts';
import { getAuthProvider, registeredAuthProviders } from './providers.ts';
import { clearSession } from './session.ts';

beforeEach(() => clearSession());

describe('auth provider registry', () => {
  it('has the email (reading A) and jwt (reading B) providers', () => {
    expect(registeredAuthProviders()).toEqual(expect.arrayContaining(['email', 'jwt']));
    expect(getAuthProvider('email').name).toBe('email');
    expect(getAuthProvider('jwt').name).toBe('jwt');
  });

  it('throws a TypeError for a name that is not registered', () => {
    expect(() => getAuthProvider('oauth2')).toThrow(TypeError);
    expect(() => getAuthProvider('oauth2')).toThrow(/is not registered/);
  });
});

describe('email provider (reading A)', () => {
  const provider = () => getAuthProvider('email');

  it('logs in with POST /api/auth/login and reads token and data.messages', async () => {
    const api = mockFetch({
      'POST /api/auth/login': json({ token: 'a.b.c', data: { messages: ['Welcome'] } }),
    });
    const result = await provider().authenticate({
      username: 'agent',
      password: 'demo1234',
      rememberMe: true,
    });
    expect(api.calls[0].body).toEqual({ username: 'agent', password: 'demo1234', rememberMe: true });
    expect(result).toMatchObject({ success: true, token: 'a.b.c', messages: ['Welcome'] });
  });

  it('falls back to the default texts of docs/product.md#auth-messages', async () => {
    mockFetch({
      'POST /api/auth/login': json({}, 401),
      'POST /api/auth/register': json({}, 400),
      'DELETE /api/auth/logout': json({}, 500),
      'POST /api/auth/request-pass': json({ data: {} }),
      'PUT /api/auth/reset-pass': json({ data: { messages: [] } }),
    });
    const p = provider();
    expect((await p.authenticate({ username: 'a', password: 'bbbb', rememberMe: true })).errors).toEqual([
      'Login/Email combination is not correct, please try again.',
    ]);
    const register = await p.register({
      email: 'a@b.c',
      password: 'pass',
      confirmPassword: 'pass',
      terms: true,
    });
    expect(register.errors).toEqual(['Something went wrong, please try again.']);
    expect((await p.logout()).errors).toEqual(['Something went wrong, please try again.']);
    expect((await p.requestPassword({ email: 'a@b.c' })).messages).toEqual([
      'Reset password instructions have been sent to your email.',
    ]);
    const reset = await p.resetPassword({
      password: 'pass',
      confirmPassword: 'pass',
      reset_password_token: 't',
    });
    expect(reset.messages).toEqual(['Your password has been successfully changed.']);
  });

  it('shows the server errors from data.errors', async () => {
    mockFetch({ 'POST /api/auth/login': json({ data: { errors: ['Account locked'] } }, 401) });
    const result = await provider().authenticate({ username: 'a', password: 'bbbb', rememberMe: true });
    expect(result).toMatchObject({ success: false, errors: ['Account locked'], token: '' });
  });

  it('a network failure is "Something went wrong."', async () => {
    mockFetch({ 'POST /api/auth/login': new TypeError('Failed to fetch') });
    const result = await provider().authenticate({ username: 'a', password: 'bbbb', rememberMe: true });
    expect(result.errors).toEqual(['Something went wrong.']);
  });

  it('sends reset_password_token with PUT /api/auth/reset-pass and logs out with DELETE', async () => {
    const api = mockFetch({ 'PUT /api/auth/reset-pass': json({}), 'DELETE /api/auth/logout': json({}) });
    await provider().resetPassword({
      password: 'pass1',
      confirmPassword: 'pass1',
      reset_password_token: 'tok',
    });
    expect(api.find('PUT', '/api/auth/reset-pass')[0].body).toEqual({
      password: 'pass1',
      confirmPassword: 'pass1',
      reset_password_token: 'tok',
    });
    const logout = await provider().logout();
    expect(api.find('DELETE', '/api/auth/logout')).toHaveLength(1);
    expect(logout.messages).toEqual(['You have been successfully logged out.']);
  });

  it('register without a token sends the visitor to sign in next', async () => {
    mockFetch({ 'POST /api/auth/register': json({ data: { messages: [] } }) });
    const result = await provider().register({
      email: 'a@b.c',
      password: 'pass',
      confirmPassword: 'pass',
      terms: true,
    });
    expect(result).toMatchObject({
      success: true,
      redirect: '/auth/login',
      messages: ['You have been successfully registered.'],
    });
  });
});

describe('jwt provider (reading B)', () => {
  it('posts to the absolute paths below the API base', async () => {
    const api = mockFetch({
      'POST /api-token-auth/': json({ token: 'x.y.z' }),
      'POST /auth/sign-up': json({ token: 'x.y.z' }),
      'POST /auth/sign-out': json({}),
      'POST /auth/request-pass': json({}),
      'POST /auth/reset-pass': json({}),
    });
    const p = getAuthProvider('jwt');
    expect((await p.authenticate({ username: 'agent', password: 'demo1234', rememberMe: false })).token).toBe(
      'x.y.z',
    );
    await p.register({ email: 'a@b.c', password: 'pass', confirmPassword: 'pass', terms: true });
    await p.logout();
    await p.requestPassword({ email: 'a@b.c' });
    await p.resetPassword({ password: 'pass', confirmPassword: 'pass', reset_password_token: 't' });
    expect(api.calls.map((c) => `${c.method} ${c.url.pathname}`)).toEqual([
      'POST /api-token-auth/',
      'POST /auth/sign-up',
      'POST /auth/sign-out',
      'POST /auth/request-pass',
      'POST /auth/reset-pass',
    ]);
  });
});
