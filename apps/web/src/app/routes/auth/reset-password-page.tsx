import { checkResetPasswordForm, type ResetPasswordForm } from '@forecourt/contract/auth-rules';
import { Alert } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { withTranslatedError } from '../../../i18n/messages.ts';
import { authProvider } from '../../../lib/auth/auth-service.ts';
import { useForm } from '../../../lib/use-form.ts';
import { AuthForm, NewPasswordInput } from './auth-form.tsx';
import { useAuthFormResult } from './use-auth-form-result.ts';

export const RESET_TOKEN_PARAM = 'reset_password_token';

/**
 * The reset token from the query string: `#/auth/reset-password?reset_password_token=...` in hash
 * routing, or `?reset_password_token=...#/auth/reset-password` as some mail templates write it.
 */
export function readResetToken(
  hashParams: URLSearchParams,
  search = globalThis.location?.search ?? '',
): string {
  return hashParams.get(RESET_TOKEN_PARAM) || new URLSearchParams(search).get(RESET_TOKEN_PARAM) || '';
}

export function ResetPasswordPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const token = readResetToken(params);
  const { run, ...result } = useAuthFormResult();
  const form = useForm(checkResetPasswordForm, { password: '', confirmPassword: '' });
  const field = (name: keyof ResetPasswordForm) => withTranslatedError(t, form.field(name));

  const onSubmit = form.handleSubmit(async (values: ResetPasswordForm) => {
    await run(() => authProvider().resetPassword({ ...values, reset_password_token: token }));
  });

  return (
    <AuthForm
      title={t('RESET_PASSWORD_TITLE')}
      subtitle={t('RESET_PASSWORD_TEXT')}
      notice={
        !token && (
          <Alert color="yellow" variant="light">
            {t('RESET_TOKEN_MISSING')}
          </Alert>
        )
      }
      result={result}
      valid={form.isValid}
      submitLabel={t('CHANGE_PASSWORD')}
      onSubmit={onSubmit}
    >
      <NewPasswordInput label={t('NEW_PASSWORD')} autoFocus {...field('password')} />
      <NewPasswordInput label={t('CONFIRM_NEW_PASSWORD')} {...field('confirmPassword')} />
    </AuthForm>
  );
}
