import { AUTH_TEXTS, SIGNATURE_EXPIRED } from '@forecourt/contract/auth-rules';
import type { AuthResult } from './auth-result.ts';
import { authFlashStore, authProvider } from './auth-service.ts';
import { clearSession, sessionStore, setToken } from './session.ts';

/**
 * What a signed-in session calls on the server: logout, the token's check and its refresh. Apart from
 * auth-service.ts (what the sign-in screens call), so that the login route's chunk carries none of it: the
 * logout page, the frame's session watch and the kiosk mode import it from their own chunks.
 */

const loadSchemas = () => import('./schemas.ts');
const loadApi = () => import('../api-client.ts');

/** Logout: call the server, then forget the session whatever it answered. */
export async function signOut(): Promise<AuthResult> {
  const result = sessionStore.get().token
    ? await authProvider().logout()
    : {
        success: true,
        response: null,
        redirect: '/auth/login',
        errors: [],
        messages: [AUTH_TEXTS.loggedOut],
        token: '',
      };
  clearSession();
  authFlashStore.set({ errors: [], messages: result.success ? result.messages : [] });
  return result;
}

export type VerifyOutcome = 'valid' | 'expired' | 'ignored';

/**
 * Ask the server whether the token still holds. Only a failure whose first `non_field_errors` entry
 * is 'Signature has expired.' matters (the caller then logs out); any other failure is ignored.
 */
export async function verifyToken(token = sessionStore.get().token): Promise<VerifyOutcome> {
  if (!token) return 'ignored';
  try {
    const { api } = await loadApi();
    await api.post('/api-token-verify/', { token }, { handleUnauthorized: false });
    return 'valid';
  } catch (error) {
    const client = await loadApi().catch(() => null);
    if (!client?.isApiError(error)) return 'ignored';
    const nonField = (error.body as { non_field_errors?: unknown } | null)?.non_field_errors;
    return Array.isArray(nonField) && nonField[0] === SIGNATURE_EXPIRED ? 'expired' : 'ignored';
  }
}

/**
 * Trade the token for a fresh one of the same lifetime (POST /api-token-refresh/), so a wall screen never
 * signs itself out. The new token is kept unless the session changed meanwhile. False when refused or offline.
 */
export async function refreshToken(token = sessionStore.get().token): Promise<boolean> {
  if (!token) return false;
  try {
    const [{ TokenResponseSchema }, { api }] = await Promise.all([loadSchemas(), loadApi()]);
    const fresh = await api.post(
      '/api-token-refresh/',
      { token },
      { schema: TokenResponseSchema, handleUnauthorized: false },
    );
    if (sessionStore.get().token === token) setToken(fresh.token);
    return true;
  } catch {
    return false;
  }
}
