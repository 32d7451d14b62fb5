import { checkRequestPassword, type RequestPassword } from '@forecourt/contract/auth-rules';
import { TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { withTranslatedError } from '../../../i18n/messages.ts';
import { authProvider } from '../../../lib/auth/auth-service.ts';
import { useForm } from '../../../lib/use-form.ts';
import { AuthForm } from './auth-form.tsx';
import { useAuthFormResult } from './use-auth-form-result.ts';

export function RequestPasswordPage() {
  const { t } = useTranslation();
  const { run, ...result } = useAuthFormResult();
  const form = useForm(checkRequestPassword, { email: '' });

  const onSubmit = form.handleSubmit(async (values: RequestPassword) => {
    await run(() => authProvider().requestPassword(values));
  });

  return (
    <AuthForm
      title={t('REQUEST_PASSWORD_TITLE')}
      subtitle={t('REQUEST_PASSWORD_TEXT')}
      result={result}
      valid={form.isValid}
      submitLabel={t('REQUEST_PASSWORD')}
      onSubmit={onSubmit}
    >
      <TextInput
        label={t('EMAIL_ADDRESS')}
        placeholder={t('EMAIL_ADDRESS')}
        type="email"
        autoComplete="email"
        autoFocus
        {...withTranslatedError(t, form.field('email'))}
      />
    </AuthForm>
  );
}
