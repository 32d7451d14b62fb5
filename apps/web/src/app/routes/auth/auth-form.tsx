import { Anchor, Button, Group, PasswordInput, type PasswordInputProps, Stack, Text } from '@mantine/core';
import type { FormEvent, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { FormAlerts } from '../../../components/form-alerts.tsx';
import { Link } from '../../../components/link.tsx';
import { AuthHeading } from './auth-layout.tsx';

export interface AuthFormProps {
  /** The screen's title: its heading, the form's accessible name and the tab's title. */
  title: string;
  subtitle?: ReactNode;
  onSubmit: (event?: FormEvent) => void;
  /** What the last submit said, and whether one is in flight. */
  errors: string[];
  messages: string[];
  submitting: boolean;
  /** The form passes its checks (the submit button is disabled until then). */
  valid: boolean;
  submitLabel: string;
  /** Shown above the alerts (a missing reset token). */
  notice?: ReactNode;
  /** Below the submit button: the links to the other sign-in screens. */
  footer: ReactNode;
  children: ReactNode;
}

/** One sign-in screen's form: heading, the last result's alerts, its fields, the submit button, the links on. */
export function AuthForm({
  title,
  subtitle,
  onSubmit,
  errors,
  messages,
  submitting,
  valid,
  submitLabel,
  notice,
  footer,
  children,
}: AuthFormProps) {
  return (
    <>
      <AuthHeading title={title} subtitle={subtitle} />
      <form onSubmit={onSubmit} noValidate aria-label={title}>
        <Stack gap="md">
          {notice}
          <FormAlerts errors={errors} messages={messages} submitting={submitting} />
          {children}
          <Button type="submit" size="md" fullWidth loading={submitting} disabled={submitting || !valid}>
            {submitLabel}
          </Button>
          {footer}
        </Stack>
      </form>
    </>
  );
}

/** A password field labelled (and placeheld) by `label`, with a named show-password toggle. */
export function PasswordField({ label, ...props }: PasswordInputProps & { label: string }) {
  const { t } = useTranslation();
  return (
    <PasswordInput
      label={label}
      placeholder={label}
      visibilityToggleButtonProps={{ 'aria-label': t('SHOW_PASSWORD') }}
      {...props}
    />
  );
}

/** "No account yet? Sign up": a sentence and the link to the other screen. */
export function AuthSwitch({ text, link, to }: { text: string; link: string; to: string }) {
  return (
    <Text size="sm" ta="center">
      {text}{' '}
      <Anchor component={Link} to={to}>
        {link}
      </Anchor>
    </Text>
  );
}

/** Sign in and Sign up, side by side (under the password screens). */
export function SignInOrUp() {
  const { t } = useTranslation();
  return (
    <Group justify="space-between">
      <Anchor component={Link} to="/auth/login" size="sm">
        {t('SIGN_IN')}
      </Anchor>
      <Anchor component={Link} to="/auth/register" size="sm">
        {t('SIGN_UP')}
      </Anchor>
    </Group>
  );
}
