import {
  confirmPasswordError,
  emailError,
  fullNameError,
  loginUsernameError,
  MESSAGES,
  passwordError,
} from './validation-rules.ts';

/**
 * What the sign-in screens need of the auth contract, without zod (the login route loads no schema library):
 * the forms' checks, the client's default texts and JWT decoding. auth.ts re-exports all of it next to the
 * zod schemas of the same forms, and auth-rules.test.ts holds each check to its schema's answers.
 */

/** The login form (docs/product.md#validation-rules): username optional, password rules, remember me. */
export interface LoginForm {
  username: string;
  password: string;
  rememberMe: boolean;
}

/** The registration form; `terms` must be ticked. */
export interface RegisterForm {
  fullName?: string | undefined;
  email: string;
  password: string;
  confirmPassword: string;
  terms: true;
}

export interface RequestPassword {
  email: string;
}

export interface ResetPasswordForm {
  password: string;
  confirmPassword: string;
}

/** A form's values as typed so far: text fields are strings, ticks are booleans. */
export type FormInput<T> = { [K in keyof T]-?: T[K] extends string | undefined ? string : boolean };

/**
 * The first message of each failing field, and the values as sent (trimmed where the rule trims) when none
 * fails. The same answer the form's zod schema gives: per field, its first issue.
 */
export interface FormCheck<T> {
  errors: Partial<Record<keyof T & string, string>>;
  data: T | null;
}

function result<T>(errors: Partial<Record<keyof T & string, string>>, data: T): FormCheck<T> {
  for (const key of Object.keys(errors) as (keyof T & string)[])
    if (errors[key] === undefined) delete errors[key];
  return { errors, data: Object.keys(errors).length ? null : data };
}

/** The confirmation is compared as soon as it holds text, whatever the other fields hold. */
function confirmationError(password: string, confirm: string): string | undefined {
  return confirmPasswordError(confirm) ?? (confirm !== password ? MESSAGES.confirmMismatch : undefined);
}

export function checkLoginForm(v: FormInput<LoginForm>): FormCheck<LoginForm> {
  return result<LoginForm>(
    { username: loginUsernameError(v.username), password: passwordError(v.password) },
    { username: v.username.trim(), password: v.password, rememberMe: v.rememberMe },
  );
}

export function checkRegisterForm(v: FormInput<RegisterForm>): FormCheck<RegisterForm> {
  return result<RegisterForm>(
    {
      fullName: fullNameError(v.fullName),
      email: emailError(v.email),
      password: passwordError(v.password),
      confirmPassword: confirmationError(v.password, v.confirmPassword),
      terms: v.terms === true ? undefined : MESSAGES.termsRequired,
    },
    {
      fullName: v.fullName.trim(),
      email: v.email.trim(),
      password: v.password,
      confirmPassword: v.confirmPassword,
      terms: true,
    },
  );
}

export function checkRequestPassword(v: FormInput<RequestPassword>): FormCheck<RequestPassword> {
  return result<RequestPassword>({ email: emailError(v.email) }, { email: v.email.trim() });
}

export function checkResetPasswordForm(v: FormInput<ResetPasswordForm>): FormCheck<ResetPasswordForm> {
  return result<ResetPasswordForm>(
    {
      password: passwordError(v.password),
      confirmPassword: confirmationError(v.password, v.confirmPassword),
    },
    { password: v.password, confirmPassword: v.confirmPassword },
  );
}

export const SIGNATURE_EXPIRED = 'Signature has expired.';

/** Client defaults (docs/product.md#auth-messages). */
export const AUTH_TEXTS = {
  loginFailed: 'Login/Email combination is not correct, please try again.',
  genericFailed: 'Something went wrong, please try again.',
  networkFailed: 'Something went wrong.',
  loggedIn: 'You have been successfully logged in.',
  registered: 'You have been successfully registered.',
  loggedOut: 'You have been successfully logged out.',
  resetRequested: 'Reset password instructions have been sent to your email.',
  passwordChanged: 'Your password has been successfully changed.',
} as const;

/** Decoded JWT payload fields Forecourt uses. */
export type JwtPayload = { sub?: string; exp?: number; iat?: number; jti?: string; username?: string };

/** Decode (not verify) a JWT as the client does: three parts, base64url JSON payload. */
export function decodeJwt(token: string): JwtPayload {
  const parts = token.split('.');
  if (parts.length !== 3) throw new Error(MESSAGES.tokenParts);
  try {
    const b64 = parts[1].replace(/-/g, '+').replace(/_/g, '/');
    const padded = b64 + '='.repeat((4 - (b64.length % 4)) % 4);
    const bytes = Uint8Array.from(atob(padded), (c) => c.charCodeAt(0));
    const payload = JSON.parse(new TextDecoder().decode(bytes));
    if (!payload || typeof payload !== 'object') throw new Error('not an object');
    return payload as JwtPayload;
  } catch {
    throw new Error(MESSAGES.tokenDecode);
  }
}
