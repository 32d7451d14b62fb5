import { z } from 'zod';
import {
  confirmPasswordField,
  emailField,
  fullNameField,
  MESSAGES,
  passwordField,
  usernameField,
} from './validation.ts';

// The zod-free part the sign-in screens load (form checks, default texts, JWT decoding).
export {
  AUTH_TEXTS,
  checkLoginForm,
  checkRegisterForm,
  checkRequestPassword,
  checkResetPasswordForm,
  decodeJwt,
  type JwtPayload,
  SIGNATURE_EXPIRED,
} from './auth-rules.ts';

export const LoginRequestSchema = z.object({
  username: usernameField.optional().default(''),
  email: z.string().optional().describe('Accepted in place of username'),
  password: passwordField,
  rememberMe: z.boolean().optional().default(true),
});
export type LoginRequest = z.input<typeof LoginRequestSchema>;

/** The form's own schema: username optional, password rules, remember me (docs/product.md#validation-rules). */
export const LoginFormSchema = z.object({
  username: usernameField,
  password: passwordField,
  rememberMe: z.boolean(),
});
export type LoginForm = z.infer<typeof LoginFormSchema>;

export const MessagesBodySchema = z.object({
  data: z.object({ messages: z.array(z.string()).default([]), errors: z.array(z.string()).default([]) }),
});

export const AuthResultSchema = z.object({
  token: z.string().optional(),
  redirect: z.string().optional().describe('Where the client should go next'),
  data: z.object({ messages: z.array(z.string()), errors: z.array(z.string()).optional() }),
});
export type AuthResult = z.infer<typeof AuthResultSchema>;

const registerBase = z.object({
  fullName: fullNameField.optional().default(''),
  email: emailField,
  password: passwordField,
  confirmPassword: confirmPasswordField,
  terms: z.literal(true, { error: MESSAGES.termsRequired }),
});

/**
 * The confirmation is compared as soon as both passwords hold text, whatever the other fields hold
 * (zod would otherwise skip the comparison while any field, such as the unticked terms, is invalid).
 */
const confirmMatches = {
  path: ['confirmPassword'],
  message: MESSAGES.confirmMismatch,
  when: ({ value }: { value: unknown }) => {
    const v = value as { password?: unknown; confirmPassword?: unknown };
    return (
      typeof v.password === 'string' && typeof v.confirmPassword === 'string' && v.confirmPassword !== ''
    );
  },
};

export const RegisterFormSchema = registerBase.refine(
  (v) => v.password === v.confirmPassword,
  confirmMatches,
);
export type RegisterForm = z.input<typeof RegisterFormSchema>;

/** Simpler variant: {email, name, password}. */
export const RegisterSimpleSchema = z.object({
  email: emailField,
  name: fullNameField.optional().default(''),
  password: passwordField,
  username: z.string().trim().min(1).max(150).optional(),
});

export const RequestPasswordSchema = z.object({ email: emailField });
export type RequestPassword = z.infer<typeof RequestPasswordSchema>;

export const ResetPasswordFormSchema = z
  .object({ password: passwordField, confirmPassword: confirmPasswordField })
  .refine((v) => v.password === v.confirmPassword, confirmMatches);
export type ResetPasswordForm = z.infer<typeof ResetPasswordFormSchema>;

/**
 * Server body: `password` (with `confirmPassword`, required) or `newPassword` (confirmation optional),
 * plus the one-time token from the mailed link.
 */
export const ResetPasswordRequestSchema = z
  .object({
    password: z.string({ error: MESSAGES.passwordRequired }).optional(),
    newPassword: z
      .string({ error: MESSAGES.passwordRequired })
      .optional()
      .describe('Accepted in place of password'),
    confirmPassword: z.string({ error: MESSAGES.confirmRequired }).optional(),
    reset_password_token: z
      .string({ error: 'reset_password_token must be a string' })
      .optional()
      .describe('The token of the reset link (query key reset_password_token)'),
  })
  .superRefine((v, ctx) => {
    if (!v.reset_password_token) {
      ctx.addIssue({ code: 'custom', path: ['reset_password_token'], message: RESET_TEXTS.tokenRequired });
    }
    const viaNew = v.password === undefined && v.newPassword !== undefined;
    checkNewPassword(
      ctx,
      viaNew ? 'newPassword' : 'password',
      viaNew ? v.newPassword : v.password,
      v.confirmPassword,
      !viaNew,
    );
  });
export type ResetPasswordRequest = z.infer<typeof ResetPasswordRequestSchema>;

/** Server messages of the reset flow. */
export const RESET_TEXTS = {
  tokenRequired: 'reset_password_token is required.',
  tokenInvalid: 'This password reset link is not valid. Please request a new one.',
  tokenUsed: 'This password reset link has already been used. Please request a new one.',
  tokenExpired: 'This password reset link has expired. Please request a new one.',
} as const;

/** How long a reset link works. */
export const RESET_TOKEN_TTL_S = 3600;

/**
 * Password rules (docs/product.md#validation-rules) on `field`, plus the confirmation (required when
 * `confirmRequired`).
 */
export function checkNewPassword(
  ctx: z.RefinementCtx,
  field: string,
  password: string | undefined,
  confirm: string | undefined,
  confirmRequired: boolean,
) {
  const parsed = passwordField.safeParse(password);
  if (!parsed.success) {
    ctx.addIssue({ code: 'custom', path: [field], message: parsed.error.issues[0].message });
    return;
  }
  if (confirm === undefined || confirm === '') {
    if (confirmRequired)
      ctx.addIssue({ code: 'custom', path: ['confirmPassword'], message: MESSAGES.confirmRequired });
  } else if (confirm !== password) {
    ctx.addIssue({ code: 'custom', path: ['confirmPassword'], message: MESSAGES.confirmMismatch });
  }
}

/** Username rule for registration: letters, digits and . _ - @ +, 3 to 150 characters. */
export const USERNAME_PATTERN = /^[\w.@+-]{3,150}$/;

/**
 * Server body of registration, both variants: the form `{fullName, email, password, confirmPassword, terms}`
 * (recognised by any of fullName, confirmPassword or terms; confirmation and terms then required) and the
 * simple `{email, name, password}`. Without `username` one is derived from the email's local part.
 */
export const RegisterRequestSchema = z
  .object({
    fullName: fullNameField.optional(),
    name: fullNameField.optional().describe('Full name in the simple variant'),
    email: emailField,
    password: passwordField,
    confirmPassword: z.string({ error: MESSAGES.confirmRequired }).optional(),
    terms: z.boolean({ error: MESSAGES.termsRequired }).optional(),
    username: z
      .string({ error: MESSAGES.usernamePattern })
      .trim()
      .regex(USERNAME_PATTERN, MESSAGES.usernamePattern)
      .optional()
      .describe('Optional; derived from the email when absent'),
  })
  .superRefine((v, ctx) => {
    const form = v.fullName !== undefined || v.confirmPassword !== undefined || v.terms !== undefined;
    if (!form) return;
    if (!v.confirmPassword) {
      ctx.addIssue({ code: 'custom', path: ['confirmPassword'], message: MESSAGES.confirmRequired });
    } else if (v.confirmPassword !== v.password) {
      ctx.addIssue({ code: 'custom', path: ['confirmPassword'], message: MESSAGES.confirmMismatch });
    }
    if (v.terms !== true) ctx.addIssue({ code: 'custom', path: ['terms'], message: MESSAGES.termsRequired });
  });
export type RegisterRequest = z.infer<typeof RegisterRequestSchema>;

/** Server messages of registration. */
export const REGISTER_TEXTS = {
  closed: 'Registration is closed. Please ask an administrator for an account.',
  emailTaken: 'A user with this email address already exists.',
  usernameTaken: 'This username is already taken.',
  tooMany: (minutes: number) =>
    `Too many registrations from this address, please try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
} as const;

/** Where the client goes after each auth call (hash routes of the console). */
export const AUTH_REDIRECTS = {
  loggedIn: '/agent/dashboard',
  registered: '/agent/dashboard',
  resetRequested: '/auth/login',
  passwordChanged: '/auth/login',
} as const;

/** Sign-in limits per window: failures per (account, address), per address, and per account from all addresses. */
export const LOGIN_LIMITS = { perUsername: 10, perAddress: 30, perAccount: 10, windowMinutes: 15 } as const;
/** Registrations from one address per hour (docs/deploying.md). */
export const REGISTER_LIMITS = { perAddressPerHour: 10 } as const;
export const tooManyLoginAttempts = (minutes: number) =>
  `Too many login attempts, please try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`;

export const TokenAuthRequestSchema = z.object({
  username: z.string({ error: 'username is required' }).min(1, 'username is required'),
  password: z.string({ error: 'password is required' }).min(1, 'password is required'),
});
export const TokenResponseSchema = z.object({ token: z.string() });
export const TOKEN_AUTH_FAILED = 'Unable to log in with provided credentials.';
export const TOKEN_DECODE_FAILED = 'Error decoding signature.';
/** Reading B's error body: DRF's non_field_errors plus the error body of docs/product.md#api-conventions. */
export const NonFieldErrorsSchema = z.object({
  non_field_errors: z.array(z.string()),
  data: z.object({ errors: z.array(z.string()) }),
});
export const TokenVerifyRequestSchema = z.object({ token: z.string({ error: 'token is required' }) });
