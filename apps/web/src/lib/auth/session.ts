import type { CurrentUser } from '@forecourt/contract/users';
import { createStore, useStore } from '../create-store.ts';
import { storage } from '../storage.ts';
import { createToken, type TokenKind } from './token.ts';

export const TOKEN_KEY = 'auth_app_token';
export const USER_KEY = 'user';

export interface Session {
  /** The stored token ('' when signed out). */
  token: string;
  /** The stored current-user record, or null. */
  user: CurrentUser | null;
}

/** A stored record that has the shape of a user at a glance: ids and the lists the frame walks. */
function looksLikeUser(value: unknown): CurrentUser | null {
  if (!value || typeof value !== 'object') return null;
  const u = value as Partial<Record<keyof CurrentUser, unknown>>;
  const ok =
    typeof u.id === 'number' &&
    typeof u.username === 'string' &&
    Array.isArray(u.companies) &&
    Array.isArray(u.sites);
  return ok ? (value as CurrentUser) : null;
}

/**
 * How the stored user record is checked. The login route has no zod: until the signed-in routes load the
 * contract's CurrentUserSchema (schemas.ts, before the page frame renders), a record only has to look like
 * a user; the guard then checks it again with the schema.
 */
let parseStoredUser: (value: unknown) => CurrentUser | null = looksLikeUser;

function readUser(): CurrentUser | null {
  const raw = storage.get(USER_KEY);
  if (!raw) return null;
  try {
    return parseStoredUser(JSON.parse(raw));
  } catch {
    return null;
  }
}

function readSession(): Session {
  return { token: storage.get(TOKEN_KEY) ?? '', user: readUser() };
}

export const sessionStore = createStore<Session>(readSession());

let tokenKind: TokenKind = 'jwt';
/** Which token class the configured auth provider issues. */
export function setTokenKind(kind: TokenKind) {
  tokenKind = kind;
}

/** Store a token and publish the change (an empty token signs out). */
export function setToken(token: string) {
  if (token) storage.set(TOKEN_KEY, token);
  else storage.remove(TOKEN_KEY);
  sessionStore.set((s) => ({ ...s, token }));
}

export function setUser(user: CurrentUser | null) {
  if (user) storage.set(USER_KEY, JSON.stringify(user));
  else storage.remove(USER_KEY);
  sessionStore.set((s) => ({ ...s, user }));
}

/** Forget token and user, and publish an empty token. */
export function clearSession() {
  storage.remove(TOKEN_KEY);
  storage.remove(USER_KEY);
  sessionStore.set({ token: '', user: null });
}

/** Authenticated: a non-empty stored token that has not expired. */
export function isAuthenticated(session: Session = sessionStore.get(), now = Date.now()): boolean {
  return createToken(session.token, tokenKind).isValid(now);
}

/** What the route guard needs: authenticated and a non-empty stored user record. */
export function hasSession(session: Session = sessionStore.get(), now = Date.now()): boolean {
  return isAuthenticated(session, now) && session.user !== null;
}

/** Check the stored user with `parse` from now on, the one held now included (one it refuses counts as none). */
export function readStoredUserWith(parse: (value: unknown) => CurrentUser | null) {
  if (parseStoredUser === parse) return;
  parseStoredUser = parse;
  const { user } = sessionStore.get();
  if (user !== null && parse(user) === null) sessionStore.set((s) => ({ ...s, user: null }));
}

/** Re-read storage, e.g. after another tab signed in or out. */
export function reloadSession() {
  sessionStore.set(readSession());
}

if (typeof window !== 'undefined') {
  window.addEventListener('storage', (event) => {
    if (event.key === null || event.key === TOKEN_KEY || event.key === USER_KEY) reloadSession();
  });
}

export function useSession(): Session {
  return useStore(sessionStore);
}
