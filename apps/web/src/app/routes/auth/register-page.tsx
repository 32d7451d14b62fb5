import { checkRegisterForm, type RegisterForm } from '@forecourt/contract/auth-rules';
import { Anchor, Checkbox, Text, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from '../../../components/link.tsx';
import { withTranslatedError } from '../../../i18n/messages.ts';
import { adoptResult, authProvider } from '../../../lib/auth/auth-service.ts';
import { useForm } from '../../../lib/use-form.ts';
import { AuthForm, NewPasswordInput } from './auth-form.tsx';
import { useAuthFormResult } from './use-auth-form-result.ts';

export function RegisterPage() {
  const { t } = useTranslation();
  const { run, ...result } = useAuthFormResult();
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
    <AuthForm
      title={t('REGISTER_TITLE')}
      result={result}
      valid={form.isValid}
      submitLabel={t('REGISTER')}
      onSubmit={onSubmit}
      footer={
        <Text size="sm" ta="center">
          {t('ALREADY_HAVE_ACCOUNT')}{' '}
          <Anchor component={Link} to="/auth/login">
            {t('SIGN_IN_LINK')}
          </Anchor>
        </Text>
      }
    >
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
      <NewPasswordInput label={t('PASSWORD')} {...field('password')} />
      <NewPasswordInput label={t('CONFIRM_PASSWORD')} {...field('confirmPassword')} />
      <Checkbox label={t('AGREE_TERMS')} {...withTranslatedError(t, form.checkbox('terms'))} />
    </AuthForm>
  );
}
