import { describe, expect, it } from 'vitest';
import { makeUser } from '../../testing/factories.ts';
import { fakeJwt } from '../../testing/fetch-mock.ts';
import { clearSession, hasSession, isAuthenticated, sessionStore, setToken, setUser } from './session.ts';

describe('session', () => {
  it('stores the token under auth_app_token and the user under user, and publishes changes', () => {
    const seen: string[] = [];
    const off = sessionStore.subscribe(() => seen.push(sessionStore.get().token));
    const token = fakeJwt();
    setToken(token);
    setUser(makeUser());
    expect(localStorage.getItem('auth_app_token')).toBe(token);
    expect(JSON.parse(localStorage.getItem('user') ?? 'null')).toMatchObject({ username: 'agent' });
    expect(hasSession()).toBe(true);
    clearSession();
    expect(localStorage.getItem('auth_app_token')).toBeNull();
    expect(localStorage.getItem('user')).toBeNull();
    expect(seen.at(-1)).toBe('');
    off();
  });

  it('authenticated needs a non-empty, unexpired token; the guard also needs a stored user', () => {
    clearSession();
    expect(isAuthenticated()).toBe(false);
    setToken(fakeJwt({ exp: Math.floor(Date.now() / 1000) - 5 }));
    expect(isAuthenticated()).toBe(false);
    setToken(fakeJwt());
    expect(isAuthenticated()).toBe(true);
    expect(hasSession()).toBe(false);
    setUser(makeUser());
    expect(hasSession()).toBe(true);
  });
});
