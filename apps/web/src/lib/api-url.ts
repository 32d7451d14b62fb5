import { env } from '../config/env.ts';

/** Query parameter values; undefined, null and '' are left out, arrays repeat the key. */
export type QueryValue = string | number | boolean | null | undefined;

export function apiUrl(path: string, query?: Record<string, QueryValue | QueryValue[]>): string {
  const base = /^https?:\/\//.test(path) ? path : `${env.apiBase}${path.startsWith('/') ? path : `/${path}`}`;
  if (!query) return base;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    const values = Array.isArray(value) ? value : [value];
    for (const v of values) if (v !== undefined && v !== null && v !== '') params.append(key, String(v));
  }
  const qs = params.toString();
  return qs ? `${base}${base.includes('?') ? '&' : '?'}${qs}` : base;
}

/** Header carrying the token: `Authorization: JWT <token>`, or the raw token in the configured header. */
export function authHeaders(token: string): Record<string, string> {
  if (!token) return {};
  return env.authHeaderMode === 'raw' ? { [env.authHeader]: token } : { [env.authHeader]: `JWT ${token}` };
}
