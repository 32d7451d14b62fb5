/**
 * The rules of docs/product.md#validation-rules as zod fields, for the server's bodies and the contract's
 * schemas. Their texts and limits live in validation-rules.ts, whose plain checks the sign-in screens use.
 */
import { z } from 'zod';
import {
  EMAIL_MAX,
  EMAIL_PATTERN,
  FULL_NAME_MAX,
  FULL_NAME_MIN,
  LOGIN_USERNAME_MAX,
  MESSAGES,
  PASSWORD_MAX,
  PASSWORD_MIN,
} from './validation-rules.ts';

/** The limits, texts and plain checks, for whoever imports the zod fields. */
export * from './validation-rules.ts';

export const passwordField = z
  .string({ error: MESSAGES.passwordRequired })
  .min(1, MESSAGES.passwordRequired)
  .min(PASSWORD_MIN, MESSAGES.passwordLength)
  .max(PASSWORD_MAX, MESSAGES.passwordLength);

export const emailField = z
  .string({ error: MESSAGES.emailRequired })
  .trim()
  .min(1, MESSAGES.emailRequired)
  .regex(EMAIL_PATTERN, MESSAGES.emailPattern)
  .max(EMAIL_MAX, MESSAGES.emailPattern);

/** Full name is optional; when given it must be 4 to 50 characters. */
export const fullNameField = z
  .string()
  .trim()
  .max(FULL_NAME_MAX, MESSAGES.fullNameLength)
  .refine((v) => v.length === 0 || v.length >= FULL_NAME_MIN, MESSAGES.fullNameLength);

/**
 * Username on login is effectively optional (docs/product.md#validation-rules); a server login still needs
 * a match.
 */
export const usernameField = z.string().trim().max(LOGIN_USERNAME_MAX, MESSAGES.usernamePattern);

export const confirmPasswordField = z
  .string({ error: MESSAGES.confirmRequired })
  .min(1, MESSAGES.confirmRequired);
