import { describe, expect, it } from 'vitest';
import {
  decodeJwt,
  RESET_TEXTS,
  RegisterFormSchema,
  RegisterRequestSchema,
  ResetPasswordFormSchema,
  ResetPasswordRequestSchema,
  tooManyLoginAttempts,
} from './auth.ts';
import { AVATAR_TEXTS, AvatarSchema } from './users.ts';
import { MESSAGES } from './validation.ts';

const messages = (r: { success: boolean; error?: { issues: { message: string }[] } }) =>
  r.success ? [] : r.error!.issues.map((i) => i.message);

describe('RegisterRequestSchema', () => {
  it('accepts the simple variant without confirmation or terms', () => {
    const r = RegisterRequestSchema.safeParse({ email: 'a@b.co', name: 'Anna Bell', password: 'pass1234' });
    expect(r.success).toBe(true);
  });

  it('treats a body with fullName, confirmPassword or terms as the form and requires both', () => {
    expect(
      messages(
        RegisterRequestSchema.safeParse({ email: 'a@b.co', password: 'pass1234', fullName: 'Anna Bell' }),
      ),
    ).toEqual([MESSAGES.confirmRequired, MESSAGES.termsRequired]);
    expect(
      messages(
        RegisterRequestSchema.safeParse({
          email: 'a@b.co',
          password: 'pass1234',
          confirmPassword: 'pass1234',
        }),
      ),
    ).toEqual([MESSAGES.termsRequired]);
    expect(
      messages(
        RegisterRequestSchema.safeParse({
          email: 'a@b.co',
          password: 'pass1234',
          confirmPassword: 'pass',
          terms: true,
        }),
      ),
    ).toEqual([MESSAGES.confirmMismatch]);
  });

  it('refuses a username with spaces or too short', () => {
    for (const username of ['a b', 'ab', '']) {
      const r = RegisterRequestSchema.safeParse({ email: 'a@b.co', password: 'pass1234', username });
      expect(messages(r)).toEqual([MESSAGES.usernamePattern]);
    }
  });
});

describe('the register and reset forms', () => {
  const issuesOf = (r: {
    success: boolean;
    error?: { issues: { path: PropertyKey[]; message: string }[] };
  }) => (r.success ? [] : r.error!.issues.map((i) => `${String(i.path[0])}: ${i.message}`));

  it('report a different confirmation while other fields are still empty or invalid', () => {
    const form = { fullName: '', email: '', password: 'abc', confirmPassword: 'abd', terms: false };
    expect(issuesOf(RegisterFormSchema.safeParse(form))).toEqual(
      expect.arrayContaining([
        `confirmPassword: ${MESSAGES.confirmMismatch}`,
        `email: ${MESSAGES.emailRequired}`,
        `terms: ${MESSAGES.termsRequired}`,
      ]),
    );
    expect(issuesOf(ResetPasswordFormSchema.safeParse({ password: 'abc', confirmPassword: 'abd' }))).toEqual([
      `password: ${MESSAGES.passwordLength}`,
      `confirmPassword: ${MESSAGES.confirmMismatch}`,
    ]);
  });

  it('ask for the confirmation, not a match, while it is empty', () => {
    const form = { email: 'a@b.co', password: 'pass1234', confirmPassword: '', terms: true as const };
    expect(issuesOf(RegisterFormSchema.safeParse(form))).toEqual([
      `confirmPassword: ${MESSAGES.confirmRequired}`,
    ]);
  });

  it('say what the terms need, not the checkbox label', () => {
    expect(MESSAGES.termsRequired).toBe('You must agree to the Terms & Conditions.');
  });
});

describe('ResetPasswordRequestSchema', () => {
  it('needs a token, a valid password and, for `password`, its confirmation', () => {
    expect(
      messages(ResetPasswordRequestSchema.safeParse({ password: 'pass1234', confirmPassword: 'pass1234' })),
    ).toEqual([RESET_TEXTS.tokenRequired]);
    expect(
      messages(ResetPasswordRequestSchema.safeParse({ password: 'pass1234', reset_password_token: 't' })),
    ).toEqual([MESSAGES.confirmRequired]);
    expect(
      messages(ResetPasswordRequestSchema.safeParse({ newPassword: 'pas', reset_password_token: 't' })),
    ).toEqual([MESSAGES.passwordLength]);
    expect(
      ResetPasswordRequestSchema.safeParse({ newPassword: 'pass1234', reset_password_token: 't' }).success,
    ).toBe(true);
  });
});

describe('AvatarSchema', () => {
  it('accepts image data URLs, paths and null; refuses the rest', () => {
    expect(AvatarSchema.safeParse('data:image/png;base64,iVBORw0KGgo=').success).toBe(true);
    expect(AvatarSchema.safeParse('/assets/a.png').success).toBe(true);
    expect(AvatarSchema.safeParse(null).success).toBe(true);
    expect(messages(AvatarSchema.safeParse('javascript:alert(1)'))).toEqual([AVATAR_TEXTS.invalid]);
    expect(messages(AvatarSchema.safeParse('data:image/svg+xml;base64,PHN2Zz4='))).toEqual([
      AVATAR_TEXTS.invalid,
    ]);
    expect(messages(AvatarSchema.safeParse(`data:image/png;base64,${'A'.repeat(800_000)}`))).toEqual([
      AVATAR_TEXTS.tooLarge,
    ]);
  });
});

describe('auth texts and tokens', () => {
  it('says minutes, or minute for one', () => {
    expect(tooManyLoginAttempts(15)).toBe('Too many login attempts, please try again in 15 minutes.');
    expect(tooManyLoginAttempts(1)).toBe('Too many login attempts, please try again in 1 minute.');
  });

  it('decodes a JWT payload and refuses malformed tokens with the documented messages', () => {
    const payload = btoa(JSON.stringify({ sub: '1', exp: 2 })).replace(/=+$/, '');
    expect(decodeJwt(`x.${payload}.y`)).toEqual({ sub: '1', exp: 2 });
    expect(() => decodeJwt('a.b')).toThrow(MESSAGES.tokenParts);
    expect(() => decodeJwt('a.!!!.c')).toThrow(MESSAGES.tokenDecode);
  });
});
