import { describe, expect, it } from 'vitest';
import { decodeJwt, LoginFormSchema, RegisterFormSchema, ResetPasswordFormSchema } from './auth.ts';
import { ticketError } from './tickets.ts';
import { MESSAGES } from './validation.ts';

const messages = (r: { success: boolean; error?: { issues: { message: string }[] } }) =>
  r.success ? [] : r.error!.issues.map((i) => i.message);

describe('validation messages (docs/product.md#validation-rules)', () => {
  it('password: required, then 4 to 50 characters', () => {
    expect(messages(LoginFormSchema.safeParse({ username: '', password: '', rememberMe: true }))).toContain(
      MESSAGES.passwordRequired,
    );
    expect(messages(LoginFormSchema.safeParse({ username: '', password: 'abc', rememberMe: true }))).toEqual([
      MESSAGES.passwordLength,
    ]);
    expect(
      messages(LoginFormSchema.safeParse({ username: '', password: 'x'.repeat(51), rememberMe: true })),
    ).toEqual([MESSAGES.passwordLength]);
    expect(LoginFormSchema.safeParse({ username: '', password: 'abcd', rememberMe: true }).success).toBe(
      true,
    );
    expect(MESSAGES.passwordLength).toBe('Password should contains from 4 to 50 characters');
  });

  it('registration: email pattern, optional full name 4–50, confirmation and terms', () => {
    const ok = { fullName: '', email: 'a@b.co', password: 'secret', confirmPassword: 'secret', terms: true };
    expect(RegisterFormSchema.safeParse(ok).success).toBe(true);
    expect(messages(RegisterFormSchema.safeParse({ ...ok, email: '' }))).toContain('Email is required!');
    expect(messages(RegisterFormSchema.safeParse({ ...ok, email: 'nope' }))).toContain(
      'Email should be the real one!',
    );
    expect(messages(RegisterFormSchema.safeParse({ ...ok, fullName: 'Bob' }))).toContain(
      MESSAGES.fullNameLength,
    );
    expect(messages(RegisterFormSchema.safeParse({ ...ok, confirmPassword: '' }))).toContain(
      'Password confirmation is required!',
    );
    expect(messages(RegisterFormSchema.safeParse({ ...ok, confirmPassword: 'other' }))).toContain(
      'Password does not match the confirm password.',
    );
    expect(RegisterFormSchema.safeParse({ ...ok, terms: false }).success).toBe(false);
  });

  it('reset password needs a matching confirmation', () => {
    expect(ResetPasswordFormSchema.safeParse({ password: 'abcd', confirmPassword: 'abcd' }).success).toBe(
      true,
    );
    expect(
      messages(ResetPasswordFormSchema.safeParse({ password: 'abcd', confirmPassword: 'abce' })),
    ).toEqual([MESSAGES.confirmMismatch]);
  });

  it('ticket: subject is checked first, then body', () => {
    expect(ticketError('', '')).toBe('ERROR_NO_SUBJECT');
    expect(ticketError('', 'body')).toBe('ERROR_NO_SUBJECT');
    expect(ticketError('Pump 3', '  ')).toBe('ERROR_NO_BODY');
    expect(ticketError('Pump 3', 'It leaks')).toBeNull();
  });

  it('token: three parts, then decodable', () => {
    expect(() => decodeJwt('a.b')).toThrow(MESSAGES.tokenParts);
    expect(() => decodeJwt('a.%%%.c')).toThrow(MESSAGES.tokenDecode);
    const payload = btoa(JSON.stringify({ sub: '1', exp: 2_000_000_000 }))
      .replace(/\+/g, '-')
      .replace(/\//g, '_')
      .replace(/=+$/, '');
    expect(decodeJwt(`x.${payload}.y`)).toEqual({ sub: '1', exp: 2_000_000_000 });
  });
});
