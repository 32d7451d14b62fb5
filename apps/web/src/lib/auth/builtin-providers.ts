import { AUTH_TEXTS } from '@forecourt/contract/auth-rules';
import { createHttpProvider } from './http-provider.ts';
import { registerAuthProvider } from './providers.ts';

const { loginFailed, genericFailed } = AUTH_TEXTS;

/** Reading A: relative paths under /api/auth/. */
export const emailProvider = () =>
  createHttpProvider({
    name: 'email',
    tokenKind: 'jwt',
    endpoints: {
      login: {
        method: 'POST',
        path: '/api/auth/login',
        redirect: '/agent/dashboard',
        success: AUTH_TEXTS.loggedIn,
        failure: loginFailed,
      },
      register: {
        method: 'POST',
        path: '/api/auth/register',
        redirect: '/agent/dashboard',
        success: AUTH_TEXTS.registered,
        failure: genericFailed,
      },
      logout: {
        method: 'DELETE',
        path: '/api/auth/logout',
        redirect: '/auth/login',
        success: AUTH_TEXTS.loggedOut,
        failure: genericFailed,
      },
      requestPassword: {
        method: 'POST',
        path: '/api/auth/request-pass',
        redirect: '/auth/login',
        success: AUTH_TEXTS.resetRequested,
        failure: genericFailed,
      },
      resetPassword: {
        method: 'PUT',
        path: '/api/auth/reset-pass',
        redirect: '/auth/login',
        success: AUTH_TEXTS.passwordChanged,
        failure: genericFailed,
      },
    },
  });

/** Reading B: absolute paths below the API base address, all POST. */
export const jwtProvider = () =>
  createHttpProvider({
    name: 'jwt',
    tokenKind: 'jwt',
    endpoints: {
      login: {
        method: 'POST',
        path: '/api-token-auth/',
        redirect: '/agent/dashboard',
        success: AUTH_TEXTS.loggedIn,
        failure: loginFailed,
      },
      register: {
        method: 'POST',
        path: '/auth/sign-up',
        redirect: '/agent/dashboard',
        success: AUTH_TEXTS.registered,
        failure: genericFailed,
      },
      logout: {
        method: 'POST',
        path: '/auth/sign-out',
        redirect: '/auth/login',
        success: AUTH_TEXTS.loggedOut,
        failure: genericFailed,
      },
      requestPassword: {
        method: 'POST',
        path: '/auth/request-pass',
        redirect: '/auth/login',
        success: AUTH_TEXTS.resetRequested,
        failure: genericFailed,
      },
      resetPassword: {
        method: 'POST',
        path: '/auth/reset-pass',
        redirect: '/auth/login',
        success: AUTH_TEXTS.passwordChanged,
        failure: genericFailed,
      },
    },
  });

registerAuthProvider('email', emailProvider);
registerAuthProvider('jwt', jwtProvider);
