import { AuthResultSchema } from '@forecourt/contract/auth';
import { type ChangePassword, CurrentUserSchema, type UpdateProfile } from '@forecourt/contract/users';
import { env } from '../../config/env.ts';
import { api } from '../api-client.ts';

/** The avatar path of the user record is relative to the API base address. */
export function avatarSrc(path: string | null | undefined, apiBase = env.apiBase): string | undefined {
  if (!path) return undefined;
  if (/^(https?:|data:|blob:)/.test(path)) return path;
  return `${apiBase}${path.startsWith('/') ? path : `/${path}`}`;
}

/** POST /api/user/update/: answers the updated user. */
export function updateProfile(body: UpdateProfile) {
  return api.post('/api/user/update/', body, { schema: CurrentUserSchema });
}

/** POST /api/user/change/password/: answers a fresh token (the old one stops working) and the success message. */
export function changePassword(body: ChangePassword) {
  return api.post('/api/user/change/password/', body, { schema: AuthResultSchema });
}
