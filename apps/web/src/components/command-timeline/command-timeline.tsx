import { isFinalCommandState } from '@forecourt/contract/commands';
import { formatDateSafe } from '@forecourt/contract/formatters';
import type { Command, CommandState } from '@forecourt/contract/terminals';
import { Button, Center, Drawer, Group, Loader, Stack, Text, Timeline } from '@mantine/core';
import {
  IconAlertTriangle,
  IconCheck,
  IconClockX,
  IconHourglassEmpty,
  IconSend,
  IconUser,
  IconX,
} from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { type CommandOwner, commandQueries } from '../../lib/api/commands.ts';
import { errorText } from '../../lib/api-client.ts';
import { CommandStateBadge, commandStateColor, commandStateKey } from '../command-state.tsx';

const STATE_ICON: Record<CommandState, ReactNode> = {
  queued: <IconUser size={10} />,
  sent: <IconSend size={10} />,
  confirmed: <IconCheck size={10} />,
  failed: <IconX size={10} />,
  timed_out: <IconClockX size={10} />,
  expired: <IconHourglassEmpty size={10} />,
};

function useWhen() {
  const { i18n } = useTranslation();
  const lang = i18n.resolvedLanguage ?? i18n.language ?? 'en';
  // Day first, 24-hour clock with seconds, like the rest of the console.
  const format = new Intl.DateTimeFormat(lang === 'en' ? 'en-GB' : lang, {
    day: 'numeric',
    month: 'numeric',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  });
  return (iso: string) => formatDateSafe(iso, (date) => format.format(date));
}

function CommandTitle({ command }: { command: Command }) {
  const { t } = useTranslation();
  if (command.kind === 'reboot') {
    return (
      <>
        {t('CMD_REBOOT', {
          type: t(command.reboot_type === 'full' ? 'REBOOT_FULL' : 'REBOOT_SOFTWARE'),
          terminal: command.terminal_number,
        })}
      </>
    );
  }
  if (command.kind === 'install') return <>{t('CMD_INSTALL')}</>;
  return <>{t(command.kind === 'pump_on' ? 'CMD_PUMP_ON' : 'CMD_PUMP_OFF', { pump_no: command.pump_no })}</>;
}

/** One command: what was asked, by whom and when, and each step it went through on its way to the device. */
export function CommandEntry({ command }: { command: Command }) {
  const { t } = useTranslation();
  const when = useWhen();
  const history = command.history.length
    ? command.history
    : [{ state: 'queued' as const, at: command.created_at, detail: null }];
  return (
    <li className="fc-command" aria-label={`#${command.id}`}>
      <Group justify="space-between" wrap="nowrap" gap="xs" mb={4}>
        <Text fw={600} size="sm">
          <CommandTitle command={command} />
        </Text>
        <CommandStateBadge state={command.state} />
      </Group>
      <Text size="xs" c="dimmed" mb="xs">
        {t('CMD_REQUESTED_BY', {
          name: command.requested_by ?? t('CMD_UNKNOWN_USER'),
          when: when(command.created_at),
        })}
      </Text>
      <Timeline active={history.length - 1} bulletSize={18} lineWidth={2}>
        {history.map((h, i) => (
          <Timeline.Item
            // biome-ignore lint/suspicious/noArrayIndexKey: history is append-only, the index is stable
            key={i}
            color={commandStateColor(h.state)}
            bullet={STATE_ICON[h.state]}
            title={<Text size="sm">{t(commandStateKey(h.state))}</Text>}
          >
            <Text size="xs" c="dimmed">
              <time dateTime={h.at}>{when(h.at)}</time>
            </Text>
            {h.detail && <Text size="xs">{h.detail}</Text>}
          </Timeline.Item>
        ))}
      </Timeline>
      {!isFinalCommandState(command.state) && (
        <Text size="xs" c="dimmed" mt={4}>
          {t(command.state === 'queued' ? 'CMD_WAITING_DEVICE' : 'CMD_WAITING_CONFIRMATION')}
        </Text>
      )}
    </li>
  );
}

/** The commands of a pump or a terminal, newest first, re-read every 2 s while one is under way. */
export function CommandTimeline({ owner, id }: { owner: CommandOwner; id: number }) {
  const { t } = useTranslation();
  const query = useQuery(commandQueries.timeline(owner, id));
  if (query.isPending) {
    return (
      <Center mih={120} role="status" aria-label={t('LOADING')}>
        <Loader size="sm" />
      </Center>
    );
  }
  if (query.isError) {
    return (
      <Stack align="center" role="alert" gap="xs" py="md">
        <IconAlertTriangle size={22} color="var(--mantine-color-red-6)" aria-hidden />
        <Text size="sm">{t('CMD_LOAD_FAILED')}</Text>
        <Text size="xs" c="dimmed">
          {errorText(query.error)}
        </Text>
        <Button size="xs" variant="light" onClick={() => void query.refetch()}>
          {t('RETRY')}
        </Button>
      </Stack>
    );
  }
  if (!query.data.length) {
    return (
      <Text c="dimmed" size="sm" ta="center" py="md">
        {t('CMD_NONE')}
      </Text>
    );
  }
  return (
    <Stack
      component="ol"
      gap="lg"
      p={0}
      m={0}
      style={{ listStyle: 'none' }}
      aria-label={t('COMMAND_HISTORY')}
    >
      {query.data.map((c) => (
        <CommandEntry key={c.id} command={c} />
      ))}
    </Stack>
  );
}

export interface CommandTimelineTarget {
  owner: CommandOwner;
  id: number;
  /** Already translated, e.g. "Pump 3" or "Terminal 10010002". */
  label: string;
}

/** A drawer holding the command timeline of a pump or terminal; closed when `target` is null. */
export function CommandTimelineDrawer({
  target,
  onClose,
}: {
  target: CommandTimelineTarget | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Drawer
      opened={target !== null}
      onClose={onClose}
      position="right"
      size="md"
      title={target ? t('COMMAND_HISTORY_OF', { label: target.label }) : t('COMMAND_HISTORY')}
      closeButtonProps={{ 'aria-label': t('CLOSE') }}
    >
      {target && <CommandTimeline owner={target.owner} id={target.id} />}
    </Drawer>
  );
}
