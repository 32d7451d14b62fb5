import { checkLoginForm, type LoginForm } from '@forecourt/contract/auth-rules';
import { Anchor, Checkbox, Group, TextInput } from '@mantine/core';
import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useNavigate } from 'react-router';
import { Link } from '../../../components/link.tsx';
import { withTranslatedError } from '../../../i18n/messages.ts';
import { signIn } from '../../../lib/auth/auth-service.ts';
import { hasSession, useSession } from '../../../lib/auth/session.ts';
import { useForm } from '../../../lib/use-form.ts';
import { AuthForm, AuthSwitch, PasswordField } from './auth-form.tsx';
import { useAuthAlerts } from './use-auth-form-result.ts';

export function LoginPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const session = useSession();
  // What the previous attempt left behind (the guard bounced a failed sign-in back here).
  const { flash, start, settle, ...alerts } = useAuthAlerts();
  const submittingRef = useRef(false);

  const form = useForm(checkLoginForm, {
    username: flash?.username ?? '',
    password: '',
    rememberMe: true,
  });

  if (hasSession(session) && !submittingRef.current) return <Navigate to="/agent/dashboard" replace />;

  const onSubmit = form.handleSubmit(async (values: LoginForm) => {
    submittingRef.current = true;
    start();
    settle(await signIn(values));
    submittingRef.current = false;
    // Whatever the result: the guard lets a signed-in user in and sends anyone else back here.
    navigate('/agent/dashboard');
  });

  const field = (name: keyof LoginForm) => withTranslatedError(t, form.field(name));

  return (
    <AuthForm
      title={t('LOGIN_TITLE')}
      subtitle={t('LOGIN_SUBTITLE')}
      onSubmit={onSubmit}
      {...alerts}
      valid={form.isValid}
      submitLabel={t('SIGN_IN')}
      footer={<AuthSwitch text={t('NO_ACCOUNT')} link={t('SIGN_UP')} to="/auth/register" />}
    >
      <TextInput
        label={t('USERNAME')}
        placeholder={t('USERNAME')}
        autoComplete="username"
        autoFocus
        {...field('username')}
      />
      <PasswordField label={t('PASSWORD')} autoComplete="current-password" {...field('password')} />
      <Group justify="space-between" wrap="wrap" gap="xs">
        <Checkbox label={t('REMEMBER_ME')} {...form.checkbox('rememberMe')} />
        <Anchor component={Link} to="/auth/request-password" size="sm">
          {t('FORGOT_PASSWORD')}
        </Anchor>
      </Group>
    </AuthForm>
  );
}
