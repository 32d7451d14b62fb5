import { z } from 'zod';

/** Exact texts of the validation messages (docs/product.md#validation-rules). */
export const MESSAGES = {
  passwordRequired: 'Password is required!',
  passwordLength: 'Password should contains from 4 to 50 characters',
  emailRequired: 'Email is required!',
  emailPattern: 'Email should be the real one!',
  fullNameRequired: 'Full name is required!',
  fullNameLength: 'Full name should contains from 4 to 50 characters',
  usernameRequired: 'Username is required!',
  usernamePattern: 'Username should be the real one!',
  confirmRequired: 'Password confirmation is required!',
  confirmMismatch: 'Password does not match the confirm password.',
  termsRequired: 'You must agree to the Terms & Conditions.',
  tokenParts: 'The token is not a valid JWT token and must consist of three parts.',
  tokenDecode: 'The token could not be decoded.',
} as const;

export const PASSWORD_MIN = 4;
export const PASSWORD_MAX = 50;
export const FULL_NAME_MIN = 4;
export const FULL_NAME_MAX = 50;

/** Loose pattern: text, at sign, text, dot, text. */
export const EMAIL_PATTERN = /^.+@.+\..+$/;

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
  .max(254, MESSAGES.emailPattern);

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
export const usernameField = z.string().trim().max(150, MESSAGES.usernamePattern);

export const confirmPasswordField = z
  .string({ error: MESSAGES.confirmRequired })
  .min(1, MESSAGES.confirmRequired);
