import { checkResetPasswordForm, type ResetPasswordForm } from '@forecourt/contract/auth-rules';
import { Alert, Anchor, Button, Group, PasswordInput, Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { FormAlerts } from '../../../components/form-alerts.tsx';
import { Link } from '../../../components/link.tsx';
import { withTranslatedError } from '../../../i18n/messages.ts';
import { authProvider } from '../../../lib/auth/auth-service.ts';
import { useForm } from '../../../lib/use-form.ts';
import { AuthHeading } from './auth-layout.tsx';
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
  const { errors, messages, submitting, run } = useAuthFormResult();
  const form = useForm(checkResetPasswordForm, { password: '', confirmPassword: '' });
  const field = (name: keyof ResetPasswordForm) => withTranslatedError(t, form.field(name));

  const onSubmit = form.handleSubmit(async (values: ResetPasswordForm) => {
    await run(() => authProvider().resetPassword({ ...values, reset_password_token: token }));
  });

  return (
    <>
      <AuthHeading title={t('RESET_PASSWORD_TITLE')} subtitle={t('RESET_PASSWORD_TEXT')} />
      <form onSubmit={onSubmit} noValidate aria-label={t('RESET_PASSWORD_TITLE')}>
        <Stack gap="md">
          {!token && (
            <Alert color="yellow" variant="light">
              {t('RESET_TOKEN_MISSING')}
            </Alert>
          )}
          <FormAlerts errors={errors} messages={messages} submitting={submitting} />
          <PasswordInput
            label={t('NEW_PASSWORD')}
            placeholder={t('NEW_PASSWORD')}
            autoComplete="new-password"
            autoFocus
            visibilityToggleButtonProps={{ 'aria-label': t('SHOW_PASSWORD') }}
            {...field('password')}
          />
          <PasswordInput
            label={t('CONFIRM_NEW_PASSWORD')}
            placeholder={t('CONFIRM_NEW_PASSWORD')}
            autoComplete="new-password"
            visibilityToggleButtonProps={{ 'aria-label': t('SHOW_PASSWORD') }}
            {...field('confirmPassword')}
          />
          <Button
            type="submit"
            size="md"
            fullWidth
            loading={submitting}
            disabled={submitting || !form.isValid}
          >
            {t('CHANGE_PASSWORD')}
          </Button>
          <Group justify="space-between">
            <Anchor component={Link} to="/auth/login" size="sm">
              {t('SIGN_IN')}
            </Anchor>
            <Anchor component={Link} to="/auth/register" size="sm">
              {t('SIGN_UP')}
            </Anchor>
          </Group>
        </Stack>
      </form>
    </>
  );
}
