import { ROLLOUT_STATUSES, type Rollout, type RolloutStatus } from '@forecourt/contract/software';
import {
  Alert,
  Button,
  Center,
  Group,
  Loader,
  Modal,
  Paper,
  Progress,
  SegmentedControl,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { Link } from '../../../../components/link.tsx';
import { paths } from '../../../../config/paths.ts';
import { errorText } from '../../../../lib/api-client.ts';
import { toast } from '../../../../lib/toast.ts';
import { useDocumentTitle } from '../../../../lib/use-document-title.ts';
import { rolloutAction, softwareQueries } from './api/software.ts';
import { AgentsOnly, STATUS_COLORS, StateBadge, StatusBadge } from './rollout-parts.tsx';

type Action = 'pause' | 'resume' | 'cancel';

type T = ReturnType<typeof useTranslation>['t'];

/**
 * The server's `paused_reason` in the reader's language: an automatic pause (contract `autoPauseReason`) or an
 * agent's; any other text as it is.
 */
export function pausedReasonText(t: T, reason: string): string {
  const auto =
    /^Wave (\d+): (\d+) of (\d+) finished terminals failed \(([\d.]+)%\), more than max_failure_pct ([\d.]+)%$/.exec(
      reason,
    );
  if (auto) {
    const [, wave, failed, finished, pct, max] = auto;
    return t('ROLLOUT_AUTO_PAUSE_REASON', { wave, failed, finished, pct, max });
  }
  const by = /^Paused by (.+)$/.exec(reason);
  if (by) return t('ROLLOUT_PAUSED_BY', { username: by[1] });
  return reason;
}

/** One bar per wave: its terminals by status, as shares of the wave. */
function WaveBars({ rollout }: { rollout: Rollout }) {
  const { t } = useTranslation();
  return (
    <Stack gap="xs">
      {(rollout.wave_counts ?? []).map((w) => {
        const total = ROLLOUT_STATUSES.reduce((n, s) => n + w[s], 0);
        return (
          <Group key={w.wave} gap="sm" wrap="nowrap">
            <Text
              size="sm"
              miw={110}
              fw={w.wave === rollout.wave ? 700 : 400}
              style={{ whiteSpace: 'nowrap' }}
            >
              {t('ROLLOUT_WAVE_N', { wave: w.wave, percent: w.percent })}
            </Text>
            <Progress.Root
              size="lg"
              style={{ flex: 1 }}
              aria-label={t('ROLLOUT_WAVE_BAR', {
                wave: w.wave,
                done: w.done,
                failed: w.failed,
                total,
              })}
            >
              {ROLLOUT_STATUSES.filter((s) => w[s] > 0).map((s) => (
                <Progress.Section key={s} value={total ? (w[s] * 100) / total : 0} color={STATUS_COLORS[s]}>
                  <Progress.Label>{w[s]}</Progress.Label>
                </Progress.Section>
              ))}
            </Progress.Root>
            <Text size="xs" c="dimmed" w={40}>
              {total}
            </Text>
          </Group>
        );
      })}
    </Stack>
  );
}

function Terminals({ id }: { id: number }) {
  const { t } = useTranslation();
  const [status, setStatus] = useState<RolloutStatus | 'all'>('all');
  const query = useInfiniteQuery(softwareQueries.terminals(id, status === 'all' ? null : status));
  const rows = useMemo(() => query.data?.pages.flatMap((p) => p.rows) ?? [], [query.data]);
  return (
    <Stack gap="sm">
      <SegmentedControl
        aria-label={t('ROLLOUT_FILTER_STATUS')}
        value={status}
        onChange={(v) => setStatus(v as RolloutStatus | 'all')}
        data={[
          { value: 'all', label: t('ROLLOUT_ALL') },
          ...ROLLOUT_STATUSES.map((s) => ({ value: s, label: t(`ROLLOUT_STATUS_${s.toUpperCase()}`) })),
        ]}
        style={{ alignSelf: 'flex-start', maxWidth: '100%', overflowX: 'auto' }}
      />
      {query.isPending ? (
        <Center mih={80} role="status" aria-label={t('LOADING')}>
          <Loader />
        </Center>
      ) : rows.length === 0 ? (
        <Text c="dimmed">{t('ROLLOUT_NO_TERMINALS')}</Text>
      ) : (
        <Table.ScrollContainer minWidth={720}>
          <Table striped aria-label={t('ROLLOUT_TERMINALS')}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('ROLLOUT_TERMINAL')}</Table.Th>
                <Table.Th>{t('ROLLOUT_SITE')}</Table.Th>
                <Table.Th>{t('SOFTWARE_WAVE')}</Table.Th>
                <Table.Th>{t('ROLLOUT_STATUS')}</Table.Th>
                <Table.Th>{t('ROLLOUT_FROM_VERSION')}</Table.Th>
                <Table.Th>{t('ROLLOUT_DETAIL')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((r) => (
                <Table.Tr key={r.id}>
                  <Table.Td>
                    <Link to={paths.terminal(r.site.id, r.terminal.id)}>{r.terminal.terminal_id}</Link>
                  </Table.Td>
                  <Table.Td>{r.site.title}</Table.Td>
                  <Table.Td>{r.wave}</Table.Td>
                  <Table.Td>
                    <StatusBadge status={r.status} />
                  </Table.Td>
                  <Table.Td>{r.from_version ?? '—'}</Table.Td>
                  <Table.Td>
                    <Text size="xs">{r.detail ?? ''}</Text>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {query.hasNextPage && (
        <Button variant="light" onClick={() => query.fetchNextPage()} loading={query.isFetchingNextPage}>
          {t('ROLLOUT_LOAD_MORE')}
        </Button>
      )}
    </Stack>
  );
}

function RolloutView({ id }: { id: number }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const query = useQuery(softwareQueries.rollout(id));
  const [confirm, setConfirm] = useState<Action | null>(null);
  useDocumentTitle(t('ROLLOUT_TITLE', { id }));
  const act = useMutation({
    mutationFn: (action: Action) => rolloutAction(id, action),
    onSuccess: (r) => {
      client.setQueryData(softwareQueries.rollout(id).queryKey, r);
      void client.invalidateQueries({ queryKey: softwareQueries.all });
    },
    onError: (err) => toast.error(errorText(err)),
    onSettled: () => setConfirm(null),
  });
  if (query.isPending)
    return (
      <Center mih={160} role="status" aria-label={t('LOADING')}>
        <Loader />
      </Center>
    );
  if (query.isError)
    return (
      <Alert color="red" role="alert" m="md">
        {errorText(query.error)}
      </Alert>
    );
  const r = query.data;
  const open = r.state === 'running' || r.state === 'paused';
  return (
    <Stack p="md" gap="md">
      <Link to={paths.software}>{t('ROLLOUT_BACK')}</Link>
      <Group justify="space-between" wrap="wrap">
        <Group gap="sm">
          <Title order={1} size="h3">
            {t('ROLLOUT_TITLE', { id })}
          </Title>
          <StateBadge state={r.state} />
        </Group>
        <Group gap="xs">
          {r.state === 'running' && (
            <Button variant="light" color="yellow" onClick={() => setConfirm('pause')}>
              {t('ROLLOUT_PAUSE')}
            </Button>
          )}
          {r.state === 'paused' && (
            <Button variant="light" onClick={() => setConfirm('resume')}>
              {t('ROLLOUT_RESUME')}
            </Button>
          )}
          {open && (
            <Button variant="light" color="red" onClick={() => setConfirm('cancel')}>
              {t('ROLLOUT_CANCEL')}
            </Button>
          )}
        </Group>
      </Group>
      <Text>
        {r.package ? `${r.package.name} ${r.package.version}` : `#${r.package_id}`} ·{' '}
        {t('ROLLOUT_WAVE_OF', { wave: r.wave, waves: r.waves.length })} ·{' '}
        {r.window ? t('ROLLOUT_WINDOW', { start: r.window.start, end: r.window.end }) : t('ROLLOUT_ANY_TIME')}
      </Text>
      {r.paused_reason && (
        <Alert
          color="yellow"
          variant="light"
          role="status"
          aria-label={t('ROLLOUT_PAUSED_REASON')}
          title={t('ROLLOUT_PAUSED_REASON')}
        >
          {pausedReasonText(t, r.paused_reason)}
        </Alert>
      )}
      <SimpleGrid cols={{ base: 3, sm: 6 }} spacing="xs">
        {ROLLOUT_STATUSES.map((s) => (
          <Paper
            key={s}
            withBorder
            p="xs"
            aria-label={`${t(`ROLLOUT_STATUS_${s.toUpperCase()}`)}: ${r.counts[s]}`}
          >
            <Text size="xs" c={STATUS_COLORS[s]} fw={600}>
              {t(`ROLLOUT_STATUS_${s.toUpperCase()}`)}
            </Text>
            <Text size="lg" fw={700}>
              {r.counts[s]}
            </Text>
          </Paper>
        ))}
      </SimpleGrid>
      <WaveBars rollout={r} />
      <Terminals id={id} />
      <Modal
        opened={confirm !== null}
        onClose={() => setConfirm(null)}
        title={confirm ? t(`ROLLOUT_CONFIRM_${confirm.toUpperCase()}_TITLE`, { id }) : ''}
      >
        <Stack>
          <Text>{confirm ? t(`ROLLOUT_CONFIRM_${confirm.toUpperCase()}`) : ''}</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setConfirm(null)}>
              {t('ROLLOUT_KEEP')}
            </Button>
            <Button
              color={confirm === 'cancel' ? 'red' : undefined}
              loading={act.isPending}
              onClick={() => confirm && act.mutate(confirm)}
            >
              {confirm ? t(`ROLLOUT_${confirm.toUpperCase()}`) : ''}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}

/** `#/software/rollouts/:rolloutId`: one rollout, live (agents only). */
export default function RolloutRoute() {
  const { rolloutId } = useParams();
  const id = Number(rolloutId);
  return <AgentsOnly>{Number.isInteger(id) && id > 0 ? <RolloutView id={id} /> : null}</AgentsOnly>;
}
