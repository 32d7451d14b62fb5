import { checkRegisterForm, type RegisterForm } from '@forecourt/contract/auth-rules';
import { Anchor, Button, Checkbox, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { FormAlerts } from '../../../components/form-alerts.tsx';
import { Link } from '../../../components/link.tsx';
import { withTranslatedError } from '../../../i18n/messages.ts';
import { adoptResult, authProvider } from '../../../lib/auth/auth-service.ts';
import { useForm } from '../../../lib/use-form.ts';
import { AuthHeading } from './auth-layout.tsx';
import { useAuthFormResult } from './use-auth-form-result.ts';

export function RegisterPage() {
  const { t } = useTranslation();
  const { errors, messages, submitting, run } = useAuthFormResult();
  const form = useForm(checkRegisterForm, {
    fullName: '',
    email: '',
    password: '',
    confirmPassword: '',
    terms: false,
  });
  const field = (name: keyof RegisterForm) => withTranslatedError(t, form.field(name));

  const onSubmit = form.handleSubmit(async (values: RegisterForm) => {
    await run(async () => adoptResult(await authProvider().register(values)));
  });

  return (
    <>
      <AuthHeading title={t('REGISTER_TITLE')} />
      <form onSubmit={onSubmit} noValidate aria-label={t('REGISTER_TITLE')}>
        <Stack gap="md">
          <FormAlerts errors={errors} messages={messages} submitting={submitting} />
          <TextInput
            label={t('FULL_NAME')}
            placeholder={t('FULL_NAME')}
            autoComplete="name"
            autoFocus
            {...field('fullName')}
          />
          <TextInput
            label={t('EMAIL_ADDRESS')}
            placeholder={t('EMAIL_ADDRESS')}
            type="email"
            autoComplete="email"
            {...field('email')}
          />
          <PasswordInput
            label={t('PASSWORD')}
            placeholder={t('PASSWORD')}
            autoComplete="new-password"
            visibilityToggleButtonProps={{ 'aria-label': t('SHOW_PASSWORD') }}
            {...field('password')}
          />
          <PasswordInput
            label={t('CONFIRM_PASSWORD')}
            placeholder={t('CONFIRM_PASSWORD')}
            autoComplete="new-password"
            visibilityToggleButtonProps={{ 'aria-label': t('SHOW_PASSWORD') }}
            {...field('confirmPassword')}
          />
          <Checkbox label={t('AGREE_TERMS')} {...withTranslatedError(t, form.checkbox('terms'))} />
          <Button
            type="submit"
            size="md"
            fullWidth
            loading={submitting}
            disabled={submitting || !form.isValid}
          >
            {t('REGISTER')}
          </Button>
          <Text size="sm" ta="center">
            {t('ALREADY_HAVE_ACCOUNT')}{' '}
            <Anchor component={Link} to="/auth/login">
              {t('SIGN_IN_LINK')}
            </Anchor>
          </Text>
        </Stack>
      </form>
    </>
  );
}
