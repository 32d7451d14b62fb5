import { Anchor, Button, Group, PasswordInput, type PasswordInputProps, Stack } from '@mantine/core';
import type { FormEventHandler, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { FormAlerts } from '../../../components/form-alerts.tsx';
import { Link } from '../../../components/link.tsx';
import { AuthHeading } from './auth-layout.tsx';

/**
 * The frame of the register, request-password and reset-password forms: heading, the last result's errors and
 * messages, the fields, the submit button and the links below. The login page keeps its own markup: it is part of
 * the first view, whose weight has a budget (docs/decisions/0006-web-shell.md).
 */
export function AuthForm({
  title,
  subtitle,
  notice,
  result,
  valid,
  submitLabel,
  onSubmit,
  footer,
  children,
}: {
  title: string;
  subtitle?: string;
  /** Shown above the result's alerts. */
  notice?: ReactNode;
  result: { errors: string[]; messages: string[]; submitting: boolean };
  valid: boolean;
  submitLabel: string;
  onSubmit: FormEventHandler<HTMLFormElement>;
  /** Below the button. @default links to sign in and to sign up */
  footer?: ReactNode;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <>
      <AuthHeading title={title} subtitle={subtitle} />
      <form onSubmit={onSubmit} noValidate aria-label={title}>
        <Stack gap="md">
          {notice}
          <FormAlerts errors={result.errors} messages={result.messages} submitting={result.submitting} />
          {children}
          <Button
            type="submit"
            size="md"
            fullWidth
            loading={result.submitting}
            disabled={result.submitting || !valid}
          >
            {submitLabel}
          </Button>
          {footer ?? (
            <Group justify="space-between">
              <Anchor component={Link} to="/auth/login" size="sm">
                {t('SIGN_IN')}
              </Anchor>
              <Anchor component={Link} to="/auth/register" size="sm">
                {t('SIGN_UP')}
              </Anchor>
            </Group>
          )}
        </Stack>
      </form>
    </>
  );
}

/** A new password's field: `label` is its placeholder too, and its visibility toggle has an accessible name. */
export function NewPasswordInput({ label, ...props }: PasswordInputProps & { label: string }) {
  const { t } = useTranslation();
  return (
    <PasswordInput
      label={label}
      placeholder={label}
      autoComplete="new-password"
      visibilityToggleButtonProps={{ 'aria-label': t('SHOW_PASSWORD') }}
      {...props}
    />
  );
}
