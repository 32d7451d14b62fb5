import { AUTH_TEXTS } from '@forecourt/contract/auth';
import {
  AvatarSchema,
  type ChangePassword,
  ChangePasswordSchema,
  type CurrentUser,
  PROFILE_TEXTS,
  userKind,
} from '@forecourt/contract/users';
import { emailField, fullNameField } from '@forecourt/contract/validation';
import { zodResolver } from '@hookform/resolvers/zod';
import {
  Avatar,
  Badge,
  Button,
  Card,
  FileButton,
  Group,
  Input,
  PasswordInput,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { IconPhoto, IconTrash } from '@tabler/icons-react';
import type { TFunction } from 'i18next';
import { type FormEvent, type ReactNode, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { BackTitle } from '../../../../components/back-link.tsx';
import { FormAlerts } from '../../../../components/form-alerts.tsx';
import { paths } from '../../../../config/paths.ts';
import { translateMessage } from '../../../../i18n/messages.ts';
import { avatarSrc, changePassword, updateProfile } from '../../../../lib/api/users.ts';
import { isApiError } from '../../../../lib/api-client.ts';
import { setToken, setUser, useSession } from '../../../../lib/auth/session.ts';
import { useDocumentTitle } from '../../../../lib/use-document-title.ts';
import { ApiKeysSection } from './api-keys-section.tsx';
import { NotificationsSection } from './notifications-section.tsx';

/**
 * The profile form: the contract's field rules, with the email required as on registration. The current
 * password is asked for when the email changes (the server refuses the change without it).
 */
export const ProfileFormSchema = z.object({
  name: fullNameField,
  email: emailField,
  avatar: AvatarSchema,
  current_password: z.string().optional(),
});
type ProfileForm = z.input<typeof ProfileFormSchema>;

interface Outcome {
  errors: string[];
  messages: string[];
}
const none: Outcome = { errors: [], messages: [] };

/** A contract message in the console's language: the profile's own texts here, the shared ones in i18n. */
function translateProfileMessage(t: TFunction, message: string | undefined): string {
  if (message === PROFILE_TEXTS.currentPasswordRequired) return t('PROFILE_CURRENT_PASSWORD_REQUIRED');
  return translateMessage(t, message);
}

function failure(error: unknown): Outcome {
  if (isApiError(error)) {
    if (error.errors.length) return { errors: error.errors, messages: [] };
    return {
      errors: [error.kind === 'network' ? AUTH_TEXTS.networkFailed : AUTH_TEXTS.genericFailed],
      messages: [],
    };
  }
  return { errors: [AUTH_TEXTS.networkFailed], messages: [] };
}

/** Runs a submit: clears the last outcome, then shows the new one (a failure's errors when it throws). */
function useOutcome() {
  const [outcome, setOutcome] = useState<Outcome>(none);
  const run = async (work: () => Promise<Outcome>) => {
    setOutcome(none);
    try {
      setOutcome(await work());
    } catch (err) {
      setOutcome(failure(err));
    }
  };
  return [outcome, run] as const;
}

interface ProfileFormCardProps {
  /** The card's heading, the form's accessible name (and, by default, its submit button). */
  title: string;
  submitLabel?: string;
  /** A sentence under the heading. */
  intro?: string;
  onSubmit: (event?: FormEvent) => void;
  outcome: Outcome;
  submitting: boolean;
  valid: boolean;
  children: ReactNode;
}

/** One form of the profile in its card: heading, the outcome's alerts, the fields, the submit button. */
function ProfileFormCard({
  title,
  submitLabel = title,
  intro,
  onSubmit,
  outcome,
  submitting,
  valid,
  children,
}: ProfileFormCardProps) {
  return (
    <Card withBorder radius="md" padding="lg">
      <form onSubmit={onSubmit} noValidate aria-label={title}>
        <Stack gap="md">
          <Title order={2} fz="h4">
            {title}
          </Title>
          {intro && (
            <Text size="sm" c="dimmed">
              {intro}
            </Text>
          )}
          <FormAlerts errors={outcome.errors} messages={outcome.messages} submitting={submitting} />
          {children}
          <Group justify="flex-end">
            <Button type="submit" loading={submitting} disabled={submitting || !valid}>
              {submitLabel}
            </Button>
          </Group>
        </Stack>
      </form>
    </Card>
  );
}

function readAsDataUrl(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error);
    reader.readAsDataURL(file);
  });
}

function ProfileCard({ user }: { user: CurrentUser }) {
  const { t } = useTranslation();
  const kind = userKind(user);
  return (
    <Card withBorder radius="md" padding="lg">
      <Group gap="lg" wrap="nowrap" align="center">
        <Avatar
          src={avatarSrc(user.avatar ?? user.picture)}
          name={user.name || user.username}
          alt={t('PROFILE_AVATAR_ALT', { name: user.name || user.username })}
          size={88}
          radius={88}
          color="initials"
        />
        <Stack gap={2} miw={0}>
          <Text fw={700} fz="lg" data-testid="profile-name" truncate>
            {user.name || user.username}
          </Text>
          <Text size="sm" c="dimmed" data-testid="profile-email" truncate>
            {user.email}
          </Text>
          <Group gap="xs" mt={4}>
            <Text size="xs" c="dimmed">
              {t('USERNAME')}: {user.username}
            </Text>
            {kind !== 'none' && (
              <Badge size="sm" variant="light">
                {t(`PROFILE_KIND_${kind.toUpperCase()}`)}
              </Badge>
            )}
          </Group>
        </Stack>
      </Group>
    </Card>
  );
}

function ProfileEditForm({ user }: { user: CurrentUser }) {
  const { t } = useTranslation();
  const [outcome, run] = useOutcome();
  const form = useForm<ProfileForm, unknown, z.output<typeof ProfileFormSchema>>({
    resolver: zodResolver(ProfileFormSchema),
    mode: 'onTouched',
    defaultValues: { name: user.name, email: user.email, avatar: user.avatar ?? '', current_password: '' },
  });
  const { register, handleSubmit, formState, setValue, watch, reset, setError } = form;
  const avatar = watch('avatar');
  const emailChanges = (watch('email') ?? '').trim().toLowerCase() !== user.email.toLowerCase();
  const error = (name: keyof ProfileForm) =>
    translateProfileMessage(t, formState.errors[name]?.message) || undefined;

  const onSubmit = handleSubmit((values) =>
    run(async () => {
      const changesEmail = values.email.toLowerCase() !== user.email.toLowerCase();
      if (changesEmail && !values.current_password) {
        setError(
          'current_password',
          { message: PROFILE_TEXTS.currentPasswordRequired },
          { shouldFocus: true },
        );
        return none;
      }
      const body: Record<string, unknown> = { name: values.name, email: values.email };
      if (changesEmail) body.current_password = values.current_password;
      if (formState.dirtyFields.avatar) body.avatar = values.avatar || null;
      const updated = await updateProfile(body);
      setUser(updated);
      reset({ name: updated.name, email: updated.email, avatar: updated.avatar ?? '', current_password: '' });
      return { errors: [], messages: [PROFILE_TEXTS.updated] };
    }),
  );

  const pickAvatar = async (file: File | null) => {
    if (!file) return;
    setValue('avatar', await readAsDataUrl(file), {
      shouldDirty: true,
      shouldValidate: true,
      shouldTouch: true,
    });
  };

  return (
    <ProfileFormCard
      title={t('PROFILE_EDIT')}
      submitLabel={t('PROFILE_SAVE')}
      onSubmit={onSubmit}
      outcome={{
        errors: outcome.errors,
        messages: outcome.messages.map((m) => (m === PROFILE_TEXTS.updated ? t('PROFILE_UPDATED') : m)),
      }}
      submitting={formState.isSubmitting}
      valid={formState.isValid}
    >
      <TextInput label={t('FULL_NAME')} autoComplete="name" {...register('name')} error={error('name')} />
      <TextInput
        label={t('EMAIL_ADDRESS')}
        type="email"
        autoComplete="email"
        {...register('email')}
        error={error('email')}
      />
      <PasswordInput
        label={t('PROFILE_CURRENT_PASSWORD')}
        description={t('PROFILE_CURRENT_PASSWORD_EMAIL')}
        autoComplete="current-password"
        required={emailChanges}
        visibilityToggleButtonProps={{ 'aria-label': t('SHOW_PASSWORD') }}
        {...register('current_password')}
        error={error('current_password')}
      />
      <Input.Wrapper
        label={t('PROFILE_AVATAR')}
        error={formState.errors.avatar?.message}
        errorProps={{ role: 'alert' }}
      >
        <Group gap="sm" mt={4}>
          <Avatar src={avatarSrc(avatar)} name={user.name || user.username} color="initials" size="lg" />
          <FileButton onChange={pickAvatar} accept="image/png,image/jpeg,image/gif,image/webp">
            {(props) => (
              <Button {...props} variant="default" size="xs" leftSection={<IconPhoto size={14} />}>
                {t('PROFILE_CHOOSE_AVATAR')}
              </Button>
            )}
          </FileButton>
          {avatar && (
            <Button
              variant="subtle"
              color="red"
              size="xs"
              leftSection={<IconTrash size={14} />}
              onClick={() => setValue('avatar', '', { shouldDirty: true, shouldValidate: true })}
            >
              {t('PROFILE_REMOVE_AVATAR')}
            </Button>
          )}
        </Group>
      </Input.Wrapper>
    </ProfileFormCard>
  );
}

type PasswordForm = z.input<typeof ChangePasswordSchema>;

function PasswordChangeForm({ username }: { username: string }) {
  const { t } = useTranslation();
  const [outcome, run] = useOutcome();
  const form = useForm<PasswordForm, unknown, ChangePassword>({
    resolver: zodResolver(ChangePasswordSchema),
    mode: 'onTouched',
    defaultValues: { current_password: '', password: '', confirmPassword: '' },
  });
  const { register, handleSubmit, formState, reset } = form;
  const error = (name: keyof PasswordForm) =>
    translateProfileMessage(t, formState.errors[name]?.message) || undefined;
  const onSubmit = handleSubmit((values: ChangePassword) =>
    run(async () => {
      const result = await changePassword({
        current_password: values.current_password,
        password: values.password,
        confirmPassword: values.confirmPassword,
      });
      if (result.token) setToken(result.token);
      reset();
      return {
        errors: [],
        messages: result.data.messages.length ? result.data.messages : [AUTH_TEXTS.passwordChanged],
      };
    }),
  );

  const toggle = { 'aria-label': t('SHOW_PASSWORD') };
  return (
    <ProfileFormCard
      title={t('CHANGE_PASSWORD')}
      intro={t('RESET_PASSWORD_TEXT')}
      onSubmit={onSubmit}
      outcome={outcome}
      submitting={formState.isSubmitting}
      valid={formState.isValid}
    >
      {/* Lets password managers file the new password under the right account. */}
      <input type="text" name="username" autoComplete="username" value={username} readOnly hidden />
      <PasswordInput
        label={t('PROFILE_CURRENT_PASSWORD')}
        autoComplete="current-password"
        required
        visibilityToggleButtonProps={toggle}
        {...register('current_password')}
        error={error('current_password')}
      />
      <PasswordInput
        label={t('NEW_PASSWORD')}
        autoComplete="new-password"
        visibilityToggleButtonProps={toggle}
        {...register('password', {
          deps: formState.touchedFields.confirmPassword ? ['confirmPassword'] : [],
        })}
        error={error('password')}
      />
      <PasswordInput
        label={t('CONFIRM_NEW_PASSWORD')}
        autoComplete="new-password"
        visibilityToggleButtonProps={toggle}
        {...register('confirmPassword')}
        error={error('confirmPassword')}
      />
    </ProfileFormCard>
  );
}

/** `#/profile`: who is signed in, the profile form, the password change, alert mail and API keys. */
export default function ProfilePage() {
  const { t } = useTranslation();
  const { user } = useSession();
  useDocumentTitle(t('PROFILE_TITLE'));
  if (!user) return null;
  return (
    <Stack gap="md" maw={960}>
      <BackTitle to={paths.agentDashboard} title={t('PROFILE_TITLE')} />
      <ProfileCard user={user} />
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
        <ProfileEditForm key={user.id} user={user} />
        <PasswordChangeForm username={user.username} />
      </SimpleGrid>
      <NotificationsSection />
      <ApiKeysSection />
    </Stack>
  );
}
