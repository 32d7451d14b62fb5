import { describe, expect, expectTypeOf, it } from 'vitest';
import type { z } from 'zod';
import {
  LoginFormSchema,
  RegisterFormSchema,
  RequestPasswordSchema,
  ResetPasswordFormSchema,
} from './auth.ts';
import {
  checkLoginForm,
  checkRegisterForm,
  checkRequestPassword,
  checkResetPasswordForm,
  type FormCheck,
  type LoginForm,
  type RegisterForm,
  type RequestPassword,
  type ResetPasswordForm,
} from './auth-rules.ts';
import { MESSAGES } from './validation-rules.ts';

/** What a form shows from a zod answer: the first issue of each field, and the parsed values. */
function zodAnswer(r: { success: boolean; data?: unknown; error?: { issues: z.core.$ZodIssue[] } }) {
  const errors: Record<string, string> = {};
  for (const issue of r.error?.issues ?? []) {
    const key = String(issue.path[0] ?? '');
    if (!(key in errors)) errors[key] = issue.message;
  }
  return { errors, data: r.success ? r.data : null };
}

const plain = <T>(c: FormCheck<T>) => ({ errors: c.errors, data: c.data });

function* product<T extends Record<string, readonly unknown[]>>(
  axes: T,
): Generator<{ [K in keyof T]: T[K][number] }> {
  const keys = Object.keys(axes);
  const at = (i: number, acc: Record<string, unknown>): Generator<Record<string, unknown>> =>
    (function* () {
      if (i === keys.length) {
        yield { ...acc };
        return;
      }
      for (const v of axes[keys[i]]) yield* at(i + 1, { ...acc, [keys[i]]: v });
    })();
  yield* at(0, {}) as Generator<{ [K in keyof T]: T[K][number] }>;
}

const passwords = ['', 'a', 'abc', 'abcd', ' ab ', 'x'.repeat(50), 'x'.repeat(51), '    '];
const emails = [
  '',
  '   ',
  'nope',
  'a@b',
  'a@b.c',
  ' a@b.co ',
  `${'x'.repeat(250)}@b.co`,
  `${'x'.repeat(248)}@b.co`,
];
const names = ['', '  ', 'Bob', ' Bob ', 'Anna', '  Anna Bell  ', 'x'.repeat(50), 'x'.repeat(51)];

describe('the sign-in forms checked without zod give the contract schemas’ answers', () => {
  it('login', () => {
    for (const v of product({
      username: ['', ' agent ', 'x'.repeat(150), 'x'.repeat(151), ` ${'x'.repeat(150)} `],
      password: passwords,
      rememberMe: [true, false],
    })) {
      expect(plain(checkLoginForm(v)), JSON.stringify(v)).toEqual(zodAnswer(LoginFormSchema.safeParse(v)));
    }
  });

  it('registration', () => {
    let cases = 0;
    for (const v of product({
      fullName: names,
      email: emails,
      password: ['', 'abc', 'secret', 'x'.repeat(51)],
      confirmPassword: ['', 'secret', 'abc', 'other'],
      terms: [true, false],
    })) {
      cases++;
      expect(plain(checkRegisterForm(v)), JSON.stringify(v)).toEqual(
        zodAnswer(RegisterFormSchema.safeParse(v)),
      );
    }
    expect(cases).toBeGreaterThan(1000);
  });

  it('request password and reset password', () => {
    for (const email of emails) {
      expect(plain(checkRequestPassword({ email })), email).toEqual(
        zodAnswer(RequestPasswordSchema.safeParse({ email })),
      );
    }
    for (const v of product({ password: passwords, confirmPassword: ['', 'abcd', 'abc', ...passwords] })) {
      expect(plain(checkResetPasswordForm(v)), JSON.stringify(v)).toEqual(
        zodAnswer(ResetPasswordFormSchema.safeParse(v)),
      );
    }
  });

  it('name the failing fields with the texts of docs/product.md#validation-rules', () => {
    expect(
      checkRegisterForm({
        fullName: 'Bob',
        email: 'nope',
        password: 'abc',
        confirmPassword: 'abd',
        terms: false,
      }).errors,
    ).toEqual({
      fullName: MESSAGES.fullNameLength,
      email: MESSAGES.emailPattern,
      password: MESSAGES.passwordLength,
      confirmPassword: MESSAGES.confirmMismatch,
      terms: MESSAGES.termsRequired,
    });
    expect(checkLoginForm({ username: '', password: '', rememberMe: true })).toEqual({
      errors: { password: MESSAGES.passwordRequired },
      data: null,
    });
  });

  it('describe the same values as the schemas', () => {
    expectTypeOf<LoginForm>().toEqualTypeOf<z.infer<typeof LoginFormSchema>>();
    expectTypeOf<RegisterForm>().toEqualTypeOf<z.input<typeof RegisterFormSchema>>();
    expectTypeOf<RequestPassword>().toEqualTypeOf<z.infer<typeof RequestPasswordSchema>>();
    expectTypeOf<ResetPasswordForm>().toEqualTypeOf<z.infer<typeof ResetPasswordFormSchema>>();
  });
});
