import {
  Alert,
  type AlertProps,
  Button,
  type ButtonProps,
  Center,
  type CenterProps,
  CopyButton,
  Group,
  Loader,
  type MantineSize,
  Stack,
  Text,
  type TextProps,
  Title,
} from '@mantine/core';
import { IconAlertTriangle, IconCheck, IconCopy, IconLock, IconPlus, IconRefresh } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../lib/api-client.ts';

/** A page's (or a section's) spinner, announced as loading. */
export function LoadingState({
  label,
  loaderSize,
  ...props
}: CenterProps & {
  /** Accessible name. @default t('LOADING') */
  label?: string;
  loaderSize?: MantineSize;
}) {
  const { t } = useTranslation();
  return (
    <Center role="status" aria-label={label ?? t('LOADING')} {...props}>
      <Loader size={loaderSize} />
    </Center>
  );
}

/** A light alert with an icon, read out at once: a refusal, a missing thing, a failed load. */
export function ProblemAlert({
  lock = false,
  color = 'red',
  ...props
}: Omit<AlertProps, 'icon'> & {
  /** A lock instead of the warning sign (not allowed). @default false */
  lock?: boolean;
}) {
  return (
    <Alert
      color={color}
      variant="light"
      icon={lock ? <IconLock /> : <IconAlertTriangle />}
      role="alert"
      {...props}
    />
  );
}

/** A failed load: what went wrong and a button to try again. */
export function LoadFailed({
  message,
  onRetry,
  retryLabel,
  retryIcon = false,
  ...props
}: Omit<AlertProps, 'icon' | 'children'> & {
  message: ReactNode;
  onRetry: () => void;
  /** @default t('RETRY') */
  retryLabel?: string;
  /** A refresh icon on the button. @default false */
  retryIcon?: boolean;
}) {
  const { t } = useTranslation();
  return (
    <ProblemAlert {...props}>
      <Stack gap="xs" align="flex-start">
        <Text size="sm">{message}</Text>
        <Button
          size="xs"
          variant="light"
          leftSection={retryIcon ? <IconRefresh size={14} /> : undefined}
          onClick={onRetry}
        >
          {retryLabel ?? t('RETRY')}
        </Button>
      </Stack>
    </ProblemAlert>
  );
}

/** A page the user may not see: its title, then why not. */
export function NotAllowedPage({ title, reason, text }: { title: string; reason: string; text: string }) {
  return (
    <Stack p="md">
      <Title order={1} size="h3">
        {title}
      </Title>
      <ProblemAlert lock title={reason}>
        {text}
      </ProblemAlert>
    </Stack>
  );
}

/** The head of a page: its title (and a line under it), and its create button on the other side. */
export function PageTitleBar({
  title,
  intro,
  createLabel,
  onCreate,
}: {
  title: string;
  intro?: string;
  /** Label of the create button; no button when omitted. */
  createLabel?: string;
  onCreate?: () => void;
}) {
  const heading = (
    <Title order={1} size="h3">
      {title}
    </Title>
  );
  return (
    <Group justify="space-between" wrap="wrap" gap="sm">
      {intro === undefined ? (
        heading
      ) : (
        <Stack gap={2}>
          {heading}
          <Text size="sm" c="dimmed">
            {intro}
          </Text>
        </Stack>
      )}
      {createLabel && onCreate && (
        <Button leftSection={<IconPlus size={16} />} onClick={onCreate}>
          {createLabel}
        </Button>
      )}
    </Group>
  );
}

/** The foot of a confirming dialog: why the last try failed, if it did, then Cancel and the action. */
export function DialogActions({
  error,
  describe = (e) => e.message,
  onCancel,
  children,
}: {
  error: Error | null;
  /** The failure in words. @default its message */
  describe?: (error: Error) => string;
  onCancel: () => void;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <>
      {error && (
        <Alert color="red" variant="light" role="alert">
          {describe(error)}
        </Alert>
      )}
      <Group justify="flex-end">
        <Button variant="default" onClick={onCancel}>
          {t('CANCEL')}
        </Button>
        {children}
      </Group>
    </>
  );
}

/** The foot of a dialog that shows a secret this once: copy it, then done. */
export function CopySecretActions({
  secret,
  copyLabel,
  copiedLabel,
  doneLabel,
  onDone,
}: {
  secret: string;
  copyLabel: string;
  copiedLabel: string;
  doneLabel: string;
  onDone: () => void;
}) {
  return (
    <Group justify="flex-end">
      <CopyButton value={secret}>
        {({ copied, copy }) => (
          <Button
            variant="light"
            color={copied ? 'teal' : undefined}
            leftSection={copied ? <IconCheck size={16} /> : <IconCopy size={16} />}
            onClick={copy}
          >
            {copied ? copiedLabel : copyLabel}
          </Button>
        )}
      </CopyButton>
      <Button onClick={onDone}>{doneLabel}</Button>
    </Group>
  );
}

/** Why a request failed, in red and read out at once; nothing while it has not failed. */
export function ErrorLine({ error, ...props }: TextProps & { error: unknown }) {
  if (!error) return null;
  return (
    <Text c="red" role="alert" {...props}>
      {errorText(error)}
    </Text>
  );
}

/** A small button in a table row; `danger` for a delete. */
export function RowButton({
  danger = false,
  ...props
}: ButtonProps & {
  danger?: boolean;
  onClick: () => void;
  'aria-label': string;
}) {
  return (
    <Button size="xs" variant={danger ? 'subtle' : 'light'} color={danger ? 'red' : undefined} {...props} />
  );
}
