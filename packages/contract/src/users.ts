import { z } from 'zod';
import { CompanyRefSchema, SiteRefSchema } from './common.ts';
import { SEVERITIES } from './severity.ts';
import { confirmPasswordField, emailField, fullNameField, MESSAGES, passwordField } from './validation.ts';

export const CurrentUserSchema = z.object({
  id: z.number().int(),
  username: z.string(),
  name: z.string(),
  email: z.string(),
  avatar: z.string().nullable().describe('Path relative to the API base address'),
  picture: z.string().nullable(),
  agent: z.number().int().positive().nullable().describe('Agent id (> 0) or null'),
  companies: z
    .array(CompanyRefSchema)
    .describe(
      'Companies the user reaches as a whole: for an agent every company of the agent, else the companies linked to the user',
    ),
  sites: z
    .array(SiteRefSchema)
    .describe(
      "Sites linked to the user itself (a site user's sites). Sites reached through an agent or a company are listed by GET /api/user/sites/. Notifications follow agent, else companies[0], else sites[0].",
    ),
});
export type CurrentUser = z.infer<typeof CurrentUserSchema>;

export type UserKind = 'agent' | 'company' | 'site' | 'none';
/** Precedence: agent, then company, then site. */
export function userKind(
  user: Pick<CurrentUser, 'agent' | 'companies' | 'sites'> | null | undefined,
): UserKind {
  if (!user) return 'none';
  if (typeof user.agent === 'number' && user.agent > 0) return 'agent';
  if (user.companies?.length) return 'company';
  if (user.sites?.length) return 'site';
  return 'none';
}

/** Largest uploaded avatar image, decoded. */
export const AVATAR_MAX_BYTES = 512 * 1024;
export const AVATAR_DATA_URL = /^data:image\/(png|jpeg|gif|webp);base64,([A-Za-z0-9+/]+={0,2})$/;
const AVATAR_PATH = /^(\/|https?:\/\/)[^\s"'<>\\]{0,500}$/;
export const AVATAR_TEXTS = {
  invalid: 'Avatar must be a PNG, JPEG, GIF or WebP image as a data URL, or a path starting with /.',
  tooLarge: `Avatar image is too large (at most ${AVATAR_MAX_BYTES / 1024} KB).`,
} as const;

export const AvatarSchema = z
  .string({ error: AVATAR_TEXTS.invalid })
  .trim()
  .refine((v) => v === '' || AVATAR_DATA_URL.test(v) || AVATAR_PATH.test(v), AVATAR_TEXTS.invalid)
  .refine(
    (v) => !v.startsWith('data:') || Math.floor((v.length - v.indexOf(',') - 1) * 0.75) <= AVATAR_MAX_BYTES,
    AVATAR_TEXTS.tooLarge,
  )
  .nullable()
  .describe(
    'An image as a data URL (stored, then served from /api/user/avatar/{id}/), a path, or null/"" to remove it',
  );

/** Unknown fields (e.g. the whole stored user sent back) are ignored. */
export const UpdateProfileSchema = z.object({
  name: fullNameField.optional(),
  fullName: fullNameField.optional().describe('Same as name; wins when both are given'),
  email: emailField.optional().describe('Must not belong to another user'),
  avatar: AvatarSchema.optional(),
  current_password: z
    .string()
    .optional()
    .describe('Required to change the email: the password now (a wrong one counts as a failed sign-in)'),
});
export type UpdateProfile = z.infer<typeof UpdateProfileSchema>;

/** Server messages of the profile. */
export const PROFILE_TEXTS = {
  updated: 'Your profile has been successfully updated.',
  emailTaken: 'A user with this email address already exists.',
  oldPasswordWrong: 'Old password is not correct.',
  currentPasswordRequired: 'Current password is required.',
} as const;

/** The field that carries the current password, named by its errors. */
export const CURRENT_PASSWORD_FIELD = 'current_password';

/**
 * The current password is required (a stolen token alone cannot take the account; a wrong one counts as a
 * failed sign-in); older clients may send it as old_password or oldPassword. Answers a fresh token: older
 * tokens of the user stop working.
 */
export const ChangePasswordSchema = z
  .object({
    current_password: z.string().optional().describe('Required: the password now'),
    old_password: z.string().optional().describe('Same as current_password (older clients)'),
    oldPassword: z.string().optional().describe('Same as current_password (older clients)'),
    password: passwordField,
    confirmPassword: confirmPasswordField,
  })
  .refine((v) => v.password === v.confirmPassword, {
    path: ['confirmPassword'],
    message: MESSAGES.confirmMismatch,
  })
  .refine((v) => Boolean(currentPasswordOf(v)), {
    path: [CURRENT_PASSWORD_FIELD],
    message: PROFILE_TEXTS.currentPasswordRequired,
  });

/** The current password of a change-password body, under any of its names. */
export function currentPasswordOf(body: {
  current_password?: string;
  old_password?: string;
  oldPassword?: string;
}): string | undefined {
  return body.current_password || body.old_password || body.oldPassword || undefined;
}
export type ChangePassword = z.infer<typeof ChangePasswordSchema>;

export const UserSitesResponseSchema = z.array(SiteRefSchema);

/**
 * `GET|PUT /api/user/notifications/`: mail for each new alert in the user's scope at or above this severity
 * (null: no mail), at most one mail per site per 15 minutes (docs/product.md#alert-mail).
 */
export const NotificationPrefsSchema = z
  .object({
    email_min_severity: z
      .enum(SEVERITIES, { error: `email_min_severity must be ${SEVERITIES.join(', ')} or null` })
      .nullable()
      .describe('critical, major, minor, info, or null for no mail'),
  })
  .strict();
export type NotificationPrefs = z.infer<typeof NotificationPrefsSchema>;

/** At most one alert mail per user and site in this window; what else happened is listed in the next. */
export const ALERT_MAIL_WINDOW_MS = 15 * 60_000;
