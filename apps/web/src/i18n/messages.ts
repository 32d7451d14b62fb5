import { AUTH_TEXTS } from '@forecourt/contract/auth-rules';
import { MESSAGES } from '@forecourt/contract/validation-rules';
import type { TFunction } from 'i18next';

/**
 * The contract speaks English (one schema for form and server); the UI translates its messages by
 * looking the English text up here. A text that is not in the catalogue (a server message) is shown as is.
 */
const KEYS: Record<string, string> = {
  [MESSAGES.passwordRequired]: 'PASSWORD_REQUIRED',
  [MESSAGES.passwordLength]: 'PASSWORD_LENGTH',
  [MESSAGES.emailRequired]: 'EMAIL_REQUIRED',
  [MESSAGES.emailPattern]: 'EMAIL_PATTERN',
  [MESSAGES.fullNameRequired]: 'FULL_NAME_REQUIRED',
  [MESSAGES.fullNameLength]: 'FULL_NAME_LENGTH',
  [MESSAGES.usernameRequired]: 'USERNAME_REQUIRED',
  [MESSAGES.usernamePattern]: 'USERNAME_PATTERN',
  [MESSAGES.confirmRequired]: 'CONFIRM_REQUIRED',
  [MESSAGES.confirmMismatch]: 'CONFIRM_MISMATCH',
  [MESSAGES.termsRequired]: 'TERMS_REQUIRED',
  [MESSAGES.tokenParts]: 'TOKEN_PARTS',
  [MESSAGES.tokenDecode]: 'TOKEN_DECODE',
  [AUTH_TEXTS.loginFailed]: 'LOGIN_FAILED',
  [AUTH_TEXTS.genericFailed]: 'GENERIC_FAILED',
  [AUTH_TEXTS.networkFailed]: 'NETWORK_FAILED',
  [AUTH_TEXTS.loggedIn]: 'LOGGED_IN',
  [AUTH_TEXTS.registered]: 'REGISTERED',
  [AUTH_TEXTS.loggedOut]: 'LOGGED_OUT',
  [AUTH_TEXTS.resetRequested]: 'RESET_REQUESTED',
  [AUTH_TEXTS.passwordChanged]: 'PASSWORD_CHANGED',
};

export function messageKey(text: string): string | undefined {
  return KEYS[text];
}

export function translateMessage(t: TFunction, text: string | undefined | null): string {
  if (!text) return '';
  const key = KEYS[text];
  return key ? t(key, { defaultValue: text }) : text;
}

/** Field props with their validation message translated. */
export function withTranslatedError<P extends { error: string | undefined }>(t: TFunction, props: P): P {
  return props.error ? { ...props, error: translateMessage(t, props.error) } : props;
}
