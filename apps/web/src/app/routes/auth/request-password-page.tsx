import { checkRequestPassword, type RequestPassword } from '@forecourt/contract/auth-rules';
import { Anchor, Button, Group, Stack, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { FormAlerts } from '../../../components/form-alerts.tsx';
import { Link } from '../../../components/link.tsx';
import { withTranslatedError } from '../../../i18n/messages.ts';
import { authProvider } from '../../../lib/auth/auth-service.ts';
import { useForm } from '../../../lib/use-form.ts';
import { AuthHeading } from './auth-layout.tsx';
import { useAuthFormResult } from './use-auth-form-result.ts';

export function RequestPasswordPage() {
  const { t } = useTranslation();
  const { errors, messages, submitting, run } = useAuthFormResult();
  const form = useForm(checkRequestPassword, { email: '' });

  const onSubmit = form.handleSubmit(async (values: RequestPassword) => {
    await run(() => authProvider().requestPassword(values));
  });

  return (
    <>
      <AuthHeading title={t('REQUEST_PASSWORD_TITLE')} subtitle={t('REQUEST_PASSWORD_TEXT')} />
      <form onSubmit={onSubmit} noValidate aria-label={t('REQUEST_PASSWORD_TITLE')}>
        <Stack gap="md">
          <FormAlerts errors={errors} messages={messages} submitting={submitting} />
          <TextInput
            label={t('EMAIL_ADDRESS')}
            placeholder={t('EMAIL_ADDRESS')}
            type="email"
            autoComplete="email"
            autoFocus
            {...withTranslatedError(t, form.field('email'))}
          />
          <Button
            type="submit"
            size="md"
            fullWidth
            loading={submitting}
            disabled={submitting || !form.isValid}
          >
            {t('REQUEST_PASSWORD')}
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
