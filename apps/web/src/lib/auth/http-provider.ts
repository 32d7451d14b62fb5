import { AUTH_TEXTS } from '@forecourt/contract/auth-rules';
import { type AuthResult, authResult } from './auth-result.ts';
import type { AuthProvider } from './providers.ts';
import type { TokenKind } from './token.ts';

type Method = 'POST' | 'PUT' | 'DELETE';
interface Endpoint {
  method: Method;
  path: string;
  /** Where to go after success ('' stays). */
  redirect: string;
  /** Default success message when the server sends none. */
  success: string;
  /** Default failure message when the server sends none. */
  failure: string;
}

export interface HttpProviderOptions {
  name: string;
  tokenKind: TokenKind;
  endpoints: Record<'login' | 'register' | 'logout' | 'requestPassword' | 'resetPassword', Endpoint>;
}

function messagesOf(body: unknown): string[] {
  const data = (body as { data?: { messages?: unknown } } | null)?.data;
  return Array.isArray(data?.messages) ? data.messages.filter((m): m is string => typeof m === 'string') : [];
}

function redirectOf(body: unknown, fallback: string): string {
  const redirect = (body as { redirect?: unknown } | null)?.redirect;
  return typeof redirect === 'string' ? redirect : fallback;
}

function tokenOf(body: unknown): string {
  const token = (body as { token?: unknown } | null)?.token;
  return typeof token === 'string' ? token : '';
}

async function call(endpoint: Endpoint, body: unknown): Promise<AuthResult> {
  // The API client loads with the first call: the login page shows without it.
  let client: typeof import('../api-client.ts');
  try {
    client = await import('../api-client.ts');
  } catch (error) {
    return authResult({ success: false, response: error, errors: [AUTH_TEXTS.networkFailed] });
  }
  const { apiRequest, isApiError } = client;
  try {
    const response = await apiRequest(endpoint.path, {
      method: endpoint.method,
      body: endpoint.method === 'DELETE' ? undefined : body,
      handleUnauthorized: false,
    });
    const messages = messagesOf(response);
    return authResult({
      success: true,
      response,
      token: tokenOf(response),
      redirect: redirectOf(response, endpoint.redirect),
      messages: messages.length ? messages : [endpoint.success],
    });
  } catch (error) {
    if (isApiError(error)) {
      const errors = error.kind === 'network' ? [AUTH_TEXTS.networkFailed] : error.errors;
      return authResult({
        success: false,
        response: error,
        errors: errors.length ? errors : [endpoint.failure],
      });
    }
    return authResult({ success: false, response: error, errors: [AUTH_TEXTS.networkFailed] });
  }
}

/** A provider made of five HTTP endpoints; both endpoint sets (docs/product.md#login-flow) are instances of it. */
export function createHttpProvider(options: HttpProviderOptions): AuthProvider {
  const { endpoints } = options;
  return {
    name: options.name,
    tokenKind: options.tokenKind,
    authenticate: (data) => call(endpoints.login, data),
    register: async (data) => {
      const result = await call(endpoints.register, data);
      // With a token the new user is signed in; without one they sign in next.
      return result.success && !result.token ? { ...result, redirect: '/auth/login' } : result;
    },
    logout: () => call(endpoints.logout, {}),
    requestPassword: (data) => call(endpoints.requestPassword, data),
    resetPassword: (data) => call(endpoints.resetPassword, data),
  };
}
