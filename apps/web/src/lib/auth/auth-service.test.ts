import { describe, expect, it } from 'vitest';
import { makeUser } from '../../testing/factories.ts';
import { fakeJwt, json, mockFetch } from '../../testing/fetch-mock.ts';
import { authFlashStore, signIn } from './auth-service.ts';
import { sessionStore, setToken, setUser } from './session.ts';
import { signOut, verifyToken } from './session-calls.ts';

describe('verifyToken', () => {
  it('answers expired only when the first non_field_errors entry is "Signature has expired."', async () => {
    setToken(fakeJwt());
    mockFetch({ 'POST /api-token-verify/': json({ non_field_errors: ['Signature has expired.'] }, 400) });
    expect(await verifyToken()).toBe('expired');
    mockFetch({ 'POST /api-token-verify/': json({ non_field_errors: ['Error decoding signature.'] }, 400) });
    expect(await verifyToken()).toBe('ignored');
    mockFetch({
      'POST /api-token-verify/': json({ non_field_errors: ['x', 'Signature has expired.'] }, 400),
    });
    expect(await verifyToken()).toBe('ignored');
    mockFetch({ 'POST /api-token-verify/': new TypeError('offline') });
    expect(await verifyToken()).toBe('ignored');
    const api = mockFetch({ 'POST /api-token-verify/': json({ token: 'x' }) });
    expect(await verifyToken()).toBe('valid');
    expect(api.calls[0].body).toEqual({ token: sessionStore.get().token });
  });
});

describe('signIn', () => {
  it('stores the token, then loads and stores the current user', async () => {
    const token = fakeJwt();
    const user = makeUser();
    const api = mockFetch({
      'POST /api/auth/login': json({ token, data: { messages: ['You have been successfully logged in.'] } }),
      'GET /api/user/': json(user),
    });
    const result = await signIn({ username: 'agent', password: 'demo1234', rememberMe: true });
    expect(result.success).toBe(true);
    expect(localStorage.getItem('auth_app_token')).toBe(token);
    expect(JSON.parse(localStorage.getItem('user') ?? '{}')).toEqual(user);
    expect(api.find('GET', '/api/user/')[0].headers.get('Authorization')).toBe(`JWT ${token}`);
  });

  it('a failed sign-in leaves no session and a flash with the errors and the username', async () => {
    mockFetch({
      'POST /api/auth/login': json({ data: { errors: ['Nope'] } }, 401),
      'GET /api/user/': json({}, 401),
    });
    await signIn({ username: 'agent', password: 'wrong', rememberMe: true });
    expect(sessionStore.get()).toEqual({ token: '', user: null });
    expect(authFlashStore.get()).toEqual({ errors: ['Nope'], messages: [], username: 'agent' });
  });
});

describe('signOut', () => {
  it('calls logout, then forgets token and user whatever the answer', async () => {
    setToken(fakeJwt());
    setUser(makeUser());
    const api = mockFetch({ 'DELETE /api/auth/logout': json({}, 500) });
    await signOut();
    expect(api.calls).toHaveLength(1);
    expect(sessionStore.get()).toEqual({ token: '', user: null });
    expect(localStorage.getItem('auth_app_token')).toBeNull();
  });
});
