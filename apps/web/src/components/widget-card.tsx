import { ActionIcon, Button, Card, Center, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { IconAlertTriangle, IconInfoCircle, IconRefresh } from '@tabler/icons-react';
import { type ReactNode, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatTimeOfDay } from '../i18n/time-of-day.ts';
import { isApiError } from '../lib/api-client.ts';
import { ErrorBoundary } from './error-boundary.tsx';
import { onDemand, preload, useOnDemand } from './on-demand.tsx';

/** The info-circle modal, with its focus trap and scroll lock: fetched when it first opens. */
const infoModalModule = onDemand(() => import('./widget-info-modal.tsx'));

export interface WidgetCardProps {
  /** Title, already translated. */
  title: ReactNode;
  /** The info-circle modal: translated title and description. No icon when omitted. */
  info?: { title: ReactNode; description: ReactNode };
  /** Data is on its way: shows a loader instead of the children. @default false */
  loading?: boolean;
  /** The data could not be loaded: shows an error state with a retry button (when `onRetry` is given). */
  error?: unknown;
  /** Loaded but nothing to show: shows `emptyMessage` instead of the children. @default false */
  empty?: boolean;
  /** Text of the empty state, already translated (e.g. t('NO_EVENTS')). @default t('NO_DATA') */
  emptyMessage?: ReactNode;
  onRetry?: () => void;
  /** When the data was last received (ms since epoch); shown as "Updated HH:mm:ss". */
  updatedAt?: number;
  /** Extra controls in the header, left of the info icon. */
  actions?: ReactNode;
  /** Fixed box height (e.g. 220 or 450); the body scrolls inside it. @default auto */
  height?: number | string;
  /** Footer content below the body (links to log screens...). */
  footer?: ReactNode;
  children?: ReactNode;
  className?: string;
  'data-testid'?: string;
}

/** Map a TanStack Query result onto WidgetCard's state props: `<WidgetCard {...widgetQueryState(query)} />`. */
export function widgetQueryState(query: {
  isPending: boolean;
  isError: boolean;
  error: unknown;
  data?: unknown;
  dataUpdatedAt: number;
  refetch: () => unknown;
}): Pick<WidgetCardProps, 'loading' | 'error' | 'onRetry' | 'updatedAt'> {
  return {
    loading: query.isPending,
    // Stale data beats an error: keep showing the last answer while a poll fails.
    error: query.isError && query.data === undefined ? query.error : undefined,
    onRetry: () => void query.refetch(),
    updatedAt: query.dataUpdatedAt || undefined,
  };
}

function ErrorState({
  error,
  onRetry,
  crashed,
}: {
  error: unknown;
  onRetry?: () => void;
  crashed?: boolean;
}) {
  const { t } = useTranslation();
  const detail = isApiError(error) && error.errors.length ? error.errors[0] : undefined;
  return (
    <Center mih={100} p="xs" role="alert">
      <Stack align="center" gap={6}>
        <IconAlertTriangle size={22} color="var(--mantine-color-red-6)" aria-hidden />
        <Text size="sm" ta="center">
          {crashed ? t('WIDGET_CRASHED') : t('WIDGET_ERROR')}
        </Text>
        {detail && (
          <Text size="xs" c="dimmed" ta="center">
            {detail}
          </Text>
        )}
        {onRetry && (
          <Button size="xs" variant="light" leftSection={<IconRefresh size={14} />} onClick={onRetry}>
            {t('RETRY')}
          </Button>
        )}
      </Stack>
    </Center>
  );
}

/**
 * The frame every widget sits in: title, info-circle modal, loading / empty / error states, and an
 * error boundary of its own so one failing widget never blanks the page.
 */
export function WidgetCard(props: WidgetCardProps) {
  const {
    title,
    info,
    loading = false,
    error,
    empty = false,
    emptyMessage,
    onRetry,
    updatedAt,
    actions,
  } = props;
  const { t, i18n } = useTranslation();
  const [infoOpen, setInfoOpen] = useState(false);
  const infoModal = useOnDemand(infoModalModule, infoOpen);
  const titleId = useId();

  let body: ReactNode;
  if (loading) {
    body = (
      <Center mih={120} role="status" aria-label={t('LOADING')}>
        <Loader size="sm" />
      </Center>
    );
  } else if (error) {
    body = <ErrorState error={error} onRetry={onRetry} />;
  } else if (empty) {
    body = (
      <Center mih={120} p="md">
        <Text c="dimmed" size="sm" ta="center" data-testid="widget-empty">
          {emptyMessage ?? t('NO_DATA')}
        </Text>
      </Center>
    );
  } else {
    body = props.children;
  }

  return (
    <Card
      component="section"
      aria-labelledby={titleId}
      className={['fc-widget', props.className].filter(Boolean).join(' ')}
      h={props.height}
      data-testid={props['data-testid']}
      padding="md"
    >
      <Group justify="space-between" wrap="nowrap" gap="xs" mb="sm">
        <Title order={2} id={titleId} fz="md" fw={700} lineClamp={1}>
          {title}
        </Title>
        <Group gap={4} wrap="nowrap">
          {actions}
          {info && (
            <ActionIcon
              variant="subtle"
              color="gray"
              aria-label={typeof title === 'string' ? t('WIDGET_INFO_ABOUT', { title }) : t('WIDGET_INFO')}
              onClick={() => setInfoOpen(true)}
              onPointerEnter={() => preload(infoModalModule)}
              onFocus={() => preload(infoModalModule)}
            >
              <IconInfoCircle size={18} />
            </ActionIcon>
          )}
        </Group>
      </Group>
      <div className="fc-widget-body">
        <ErrorBoundary
          resetKeys={[loading, error, empty]}
          fallback={(e, reset) => <ErrorState error={e} crashed onRetry={reset} />}
        >
          {body}
        </ErrorBoundary>
      </div>
      {(props.footer || updatedAt) && (
        <Group justify="space-between" mt="xs" gap="xs">
          <div>{props.footer}</div>
          {updatedAt ? (
            <Text size="xs" c="dimmed">
              {t('UPDATED_AT', { time: formatTimeOfDay(updatedAt, i18n.language) })}
            </Text>
          ) : null}
        </Group>
      )}
      {info && infoModal && (
        <infoModal.WidgetInfoModal
          opened={infoOpen}
          onClose={() => setInfoOpen(false)}
          title={info.title}
          description={info.description}
        />
      )}
    </Card>
  );
}
