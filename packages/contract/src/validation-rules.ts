/**
 * The rules of docs/product.md#validation-rules as plain functions, without zod: the sign-in screens check
 * their forms with these (auth-forms.ts), so the login route does not load zod. validation.ts states the same
 * rules as zod fields for the server; validation-rules.test.ts holds the two to the same answers.
 */

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
export const EMAIL_MAX = 254;
/** Longest username accepted at sign-in. */
export const LOGIN_USERNAME_MAX = 150;

/** Loose pattern: text, at sign, text, dot, text. */
export const EMAIL_PATTERN = /^.+@.+\..+$/;

/** The first message a field's rule gives for `value`, or undefined when it holds. */
export type FieldRule = (value: string) => string | undefined;

/** Required, 4 to 50 characters (not trimmed). */
export const passwordError: FieldRule = (v) => {
  if (v.length === 0) return MESSAGES.passwordRequired;
  if (v.length < PASSWORD_MIN || v.length > PASSWORD_MAX) return MESSAGES.passwordLength;
  return undefined;
};

/** Required after trimming, text@text.text, at most 254 characters. */
export const emailError: FieldRule = (v) => {
  const email = v.trim();
  if (email.length === 0) return MESSAGES.emailRequired;
  if (!EMAIL_PATTERN.test(email) || email.length > EMAIL_MAX) return MESSAGES.emailPattern;
  return undefined;
};

/** Optional; when given (trimmed) 4 to 50 characters. */
export const fullNameError: FieldRule = (v) => {
  const name = v.trim();
  if (name.length > FULL_NAME_MAX || (name.length > 0 && name.length < FULL_NAME_MIN)) {
    return MESSAGES.fullNameLength;
  }
  return undefined;
};

/** Login username: optional in the form, at most 150 characters once trimmed. */
export const loginUsernameError: FieldRule = (v) =>
  v.trim().length > LOGIN_USERNAME_MAX ? MESSAGES.usernamePattern : undefined;

/** The confirmation field on its own: required. */
export const confirmPasswordError: FieldRule = (v) => (v.length === 0 ? MESSAGES.confirmRequired : undefined);
