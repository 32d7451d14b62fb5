import { checkLoginForm, type LoginForm } from '@forecourt/contract/auth-rules';
import { Anchor, Button, Checkbox, Group, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useNavigate } from 'react-router';
import { FormAlerts } from '../../../components/form-alerts.tsx';
import { Link } from '../../../components/link.tsx';
import { withTranslatedError } from '../../../i18n/messages.ts';
import { authFlashStore, signIn } from '../../../lib/auth/auth-service.ts';
import { hasSession, useSession } from '../../../lib/auth/session.ts';
import { useForm } from '../../../lib/use-form.ts';
import { AuthHeading } from './auth-layout.tsx';

export function LoginPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const session = useSession();
  // What the previous attempt left behind (the guard bounced a failed sign-in back here).
  const [flash] = useState(() => authFlashStore.get());
  const [errors, setErrors] = useState<string[]>(flash?.errors ?? []);
  const [messages, setMessages] = useState<string[]>(flash?.messages ?? []);
  const [submitting, setSubmitting] = useState(false);
  const submittingRef = useRef(false);

  useEffect(() => {
    authFlashStore.set(null);
  }, []);

  const form = useForm(checkLoginForm, {
    username: flash?.username ?? '',
    password: '',
    rememberMe: true,
  });

  if (hasSession(session) && !submittingRef.current) return <Navigate to="/agent/dashboard" replace />;

  const onSubmit = form.handleSubmit(async (values: LoginForm) => {
    submittingRef.current = true;
    setSubmitting(true);
    setErrors([]);
    setMessages([]);
    const result = await signIn(values);
    setErrors(result.success ? [] : result.errors);
    setMessages(result.success ? result.messages : []);
    setSubmitting(false);
    submittingRef.current = false;
    // Whatever the result: the guard lets a signed-in user in and sends anyone else back here.
    navigate('/agent/dashboard');
  });

  const field = (name: keyof LoginForm) => withTranslatedError(t, form.field(name));

  return (
    <>
      <AuthHeading title={t('LOGIN_TITLE')} subtitle={t('LOGIN_SUBTITLE')} />
      <form onSubmit={onSubmit} noValidate aria-label={t('LOGIN_TITLE')}>
        <Stack gap="md">
          <FormAlerts errors={errors} messages={messages} submitting={submitting} />
          <TextInput
            label={t('USERNAME')}
            placeholder={t('USERNAME')}
            autoComplete="username"
            autoFocus
            {...field('username')}
          />
          <PasswordInput
            label={t('PASSWORD')}
            placeholder={t('PASSWORD')}
            autoComplete="current-password"
            visibilityToggleButtonProps={{ 'aria-label': t('SHOW_PASSWORD') }}
            {...field('password')}
          />
          <Group justify="space-between" wrap="wrap" gap="xs">
            <Checkbox label={t('REMEMBER_ME')} {...form.checkbox('rememberMe')} />
            <Anchor component={Link} to="/auth/request-password" size="sm">
              {t('FORGOT_PASSWORD')}
            </Anchor>
          </Group>
          <Button
            type="submit"
            size="md"
            fullWidth
            loading={submitting}
            disabled={submitting || !form.isValid}
          >
            {t('SIGN_IN')}
          </Button>
          <Text size="sm" ta="center">
            {t('NO_ACCOUNT')}{' '}
            <Anchor component={Link} to="/auth/register">
              {t('SIGN_UP')}
            </Anchor>
          </Text>
        </Stack>
      </form>
    </>
  );
}
