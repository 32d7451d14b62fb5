import type { Severity } from '@forecourt/contract/events';
import type { Alert } from '@forecourt/contract/fleet';
import { formatDateSafe } from '@forecourt/contract/formatters';
import { Badge, Button, Group, Stack, Text } from '@mantine/core';
import { IconCheck } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatLocale } from '../../i18n/languages.ts';
import { useAckAlert } from '../../lib/api/alerts.ts';
import { errorText } from '../../lib/api-client.ts';
import { DeferredTooltip, onDemand, useOnDemandToggle } from '../on-demand.tsx';

/** The note form, with its floating code: fetched when it first opens (or the pointer comes near). */
const formModule = onDemand(() => import('./alert-ack-form.tsx'));

const SEVERITY_COLOR: Record<Severity, string> = {
  critical: 'red',
  major: 'orange',
  minor: 'yellow',
  info: 'blue',
};

/** The severity of an alert as a coloured badge (docs/event-types.md#severity). */
export function SeverityBadge({ severity }: { severity: Severity | undefined }) {
  const { t } = useTranslation();
  if (!severity) return null;
  return (
    <Badge
      size="xs"
      variant="light"
      color={SEVERITY_COLOR[severity]}
      className="fc-severity"
      data-severity={severity}
      // A badge clips its label by default; a narrow cell must not squeeze 'CRITICAL' to 'CRITI…'.
      styles={{ root: { overflow: 'visible', flexShrink: 0 }, label: { overflow: 'visible' } }}
    >
      {t(`SEVERITY_${severity.toUpperCase()}`)}
    </Badge>
  );
}

/** "who · when" of an acknowledged alert, with its note under it; nothing when not acknowledged. */
export function AckedBy({ alert }: { alert: Pick<Alert, 'acknowledged_by' | 'acknowledged_at' | 'note'> }) {
  const { t, i18n } = useTranslation();
  if (!alert.acknowledged_at) return null;
  const time = formatDateSafe(alert.acknowledged_at, (d) =>
    d.toLocaleString(formatLocale(i18n.language), { dateStyle: 'short', timeStyle: 'short' }),
  );
  const line = (
    <Group gap={4} wrap="nowrap" className="fc-acked-by">
      <IconCheck size={12} aria-hidden />
      <Text size="xs" c="dimmed">
        {t('ACK_BY', { user: alert.acknowledged_by ?? '?', time })}
      </Text>
    </Group>
  );
  return (
    <Stack gap={0}>
      {alert.note ? (
        <DeferredTooltip label={alert.note} multiline maw={280} withinPortal>
          {line}
        </DeferredTooltip>
      ) : (
        line
      )}
      {alert.note && (
        <Text size="xs" className="fc-ack-note" lineClamp={1}>
          {alert.note}
        </Text>
      )}
    </Stack>
  );
}

/**
 * Acknowledge an alert (docs/product.md#alert-lifecycle): a button opening a small form with an optional note;
 * once acknowledged, who and when (and the note). The note is shown as text, never as HTML.
 */
export function AlertAck({
  alert,
}: {
  alert: Pick<Alert, 'id' | 'text' | 'acknowledged_by' | 'acknowledged_at' | 'note'>;
}) {
  const { t } = useTranslation();
  const [note, setNote] = useState('');
  const { loaded: form, setOpened, button, anchored } = useOnDemandToggle(formModule, 'dialog');
  const ack = useAckAlert();
  if (alert.acknowledged_at) return <AckedBy alert={alert} />;
  const submit = () =>
    ack.mutate(
      { id: alert.id, note: note.trim() || undefined },
      {
        onSuccess: () => {
          setOpened(false);
          setNote('');
        },
      },
    );
  return (
    <>
      <Button
        {...button}
        size="compact-xs"
        variant="light"
        aria-label={t('ACKNOWLEDGE_ALERT', { text: alert.text })}
        className="fc-ack-button"
        leftSection={<IconCheck size={12} aria-hidden />}
      >
        {t('ACK_SHORT')}
      </Button>
      {form && (
        <form.AckForm
          {...anchored}
          note={note}
          onNote={setNote}
          onSubmit={submit}
          pending={ack.isPending}
          error={ack.isError ? errorText(ack.error) : undefined}
        />
      )}
    </>
  );
}
