import { AUTH_TEXTS, type LoginForm } from '@forecourt/contract/auth-rules';
import type { CurrentUser } from '@forecourt/contract/users';
import { env } from '../../config/env.ts';
import { createStore } from '../create-store.ts';
import type { AuthResult } from './auth-result.ts';
import './builtin-providers.ts';
import { type AuthProvider, getAuthProvider } from './providers.ts';
import { sessionStore, setToken, setTokenKind, setUser } from './session.ts';

let provider: AuthProvider | null = null;

/** The provider named by configuration (VITE_AUTH_PROVIDER, default `email`). */
export function authProvider(): AuthProvider {
  if (!provider) {
    provider = getAuthProvider(env.authProvider);
    setTokenKind(provider.tokenKind);
  }
  return provider;
}

/** Errors and messages to show on the next auth screen, e.g. after the guard bounced a failed sign-in back. */
export interface AuthFlash {
  errors: string[];
  messages: string[];
  username?: string;
}
export const authFlashStore = createStore<AuthFlash | null>(null);

export function takeAuthFlash(): AuthFlash | null {
  const flash = authFlashStore.get();
  authFlashStore.set(null);
  return flash;
}

export const currentUserQueryKey = ['user', 'current'] as const;

/**
 * The schemas need zod, and the login page shows before any call: both load with the first answer that
 * needs them (the signed-in routes have them already).
 */
const loadSchemas = () => import('./schemas.ts');
const loadApi = () => import('../api-client.ts');

export async function fetchCurrentUser(signal?: AbortSignal): Promise<CurrentUser> {
  const [{ CurrentUserSchema }, { api }] = await Promise.all([loadSchemas(), loadApi()]);
  return api.get('/api/user/', { schema: CurrentUserSchema, signal, handleUnauthorized: false });
}

/** Store a token when the result carries one, then load and store the current user. */
export async function adoptResult(result: AuthResult): Promise<AuthResult> {
  if (result.token) setToken(result.token);
  if (!sessionStore.get().token) return result;
  try {
    setUser(await fetchCurrentUser());
    return result;
  } catch {
    setUser(null);
    const errors = result.errors.length ? result.errors : [AUTH_TEXTS.networkFailed];
    return { ...result, success: false, errors };
  }
}

/**
 * The login transition (docs/product.md#login-flow): after the call returns, whatever its result, the current
 * user is loaded and stored and the caller goes on to agent/dashboard. A failed sign-in leaves no
 * token, so the route guard sends the visitor back to login, where the flash shows what went wrong.
 */
export async function signIn(values: LoginForm): Promise<AuthResult> {
  // The user's schema loads while the credentials travel (fetchCurrentUser says so if it cannot).
  loadSchemas().catch(() => undefined);
  const result = await adoptResult(await authProvider().authenticate(values));
  authFlashStore.set({
    errors: result.success ? [] : result.errors,
    messages: result.success ? result.messages : [],
    username: values.username,
  });
  return result;
}
