import { describe, expect, it } from 'vitest';
import { makeUser } from '../../testing/factories.ts';
import { fakeJwt } from '../../testing/fetch-mock.ts';
import {
  clearSession,
  hasSession,
  isAuthenticated,
  reloadSession,
  sessionStore,
  setToken,
  setUser,
  USER_KEY,
} from './session.ts';

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

describe('the stored user', () => {
  // Module state: the login route reads the record by its shape until the signed-in routes load the schema.
  it('is read by its shape up front, then through the contract schema once that is loaded', async () => {
    setToken(fakeJwt());
    localStorage.setItem(USER_KEY, JSON.stringify({ ...makeUser(), agent: -1 }));
    reloadSession();
    expect(hasSession()).toBe(true);
    localStorage.setItem(USER_KEY, JSON.stringify({ id: 1, username: 'agent' }));
    reloadSession();
    expect(hasSession()).toBe(false);

    localStorage.setItem(USER_KEY, JSON.stringify({ ...makeUser(), agent: -1 }));
    reloadSession();
    const { checkStoredUser } = await import('./schemas.ts');
    checkStoredUser();
    expect(sessionStore.get().user).toBeNull();
    reloadSession();
    expect(hasSession()).toBe(false);
    localStorage.setItem(USER_KEY, JSON.stringify(makeUser()));
    reloadSession();
    expect(sessionStore.get().user).toEqual(makeUser());
    expect(hasSession()).toBe(true);
  });
});
