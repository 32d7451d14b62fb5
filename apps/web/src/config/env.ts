/**
 * Build-time settings (Vite `VITE_*` variables), read once. Everything has a working default so the
 * app served by the Forecourt server needs no configuration at all.
 */
export type AuthHeaderMode = 'jwt' | 'raw';

export interface AppEnv {
  /** Base address of the API, without a trailing slash; '' means same origin. */
  apiBase: string;
  /** Name of the auth provider in the registry (`email` or `jwt`). */
  authProvider: string;
  authHeaderMode: AuthHeaderMode;
  /** Header carrying the token. @default 'Authorization' */
  authHeader: string;
  analyticsEnabled: boolean;
  analyticsUrl: string;
  /** Company display label shown beside the logo. */
  companyLabel: string;
  production: boolean;
}

export function readEnv(source: Partial<ImportMetaEnv> & { PROD?: boolean }): AppEnv {
  const mode = source.VITE_AUTH_HEADER_MODE === 'raw' ? 'raw' : 'jwt';
  return {
    apiBase: (source.VITE_API_BASE ?? '').replace(/\/+$/, ''),
    authProvider: source.VITE_AUTH_PROVIDER || 'email',
    authHeaderMode: mode,
    authHeader: source.VITE_AUTH_HEADER || 'Authorization',
    analyticsEnabled: source.VITE_ANALYTICS === 'on' || source.VITE_ANALYTICS === 'true',
    analyticsUrl: source.VITE_ANALYTICS_URL ?? '',
    companyLabel: source.VITE_COMPANY_LABEL || 'Forecourt',
    production: source.PROD ?? true,
  };
}

export const env: AppEnv = readEnv(import.meta.env);
