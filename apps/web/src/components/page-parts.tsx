import {
  Alert,
  type AlertProps,
  Button,
  Center,
  type CenterProps,
  Group,
  Loader,
  type MantineSize,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { IconAlertTriangle, IconLock, IconPlus, IconRefresh } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

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
