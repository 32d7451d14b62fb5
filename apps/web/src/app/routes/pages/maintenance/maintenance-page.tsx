import type { MaintenanceWindow } from '@forecourt/contract/maintenance';
import type { TargetInput } from '@forecourt/contract/targets';
import { Badge, Box, Button, Card, Group, Modal, Stack, Switch, Text, Title } from '@mantine/core';
import { IconPlayerStop } from '@tabler/icons-react';
import { useMutation, useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DialogActions, LoadFailed, LoadingState, PageTitleBar } from '../../../../components/page-parts.tsx';
import { formatLocale } from '../../../../i18n/languages.ts';
import { endWindow, maintenanceQueries } from '../../../../lib/api/maintenance.ts';
import { QUERY_ROOTS } from '../../../../lib/api/query-keys.ts';
import { targetPreviewQuery } from '../../../../lib/api/rules.ts';
import { siteQueries } from '../../../../lib/api/sites.ts';
import { errorText } from '../../../../lib/api-client.ts';
import { toast } from '../../../../lib/toast.ts';
import { useDocumentTitle } from '../../../../lib/use-document-title.ts';
import { TargetLabel, useScopeText } from '../targets/target-label.tsx';
import { MaintenanceFormModal } from './maintenance-form.tsx';
import {
  calendarLeaf,
  compareWindows,
  formatWhen,
  type WindowStatus,
  weekdayName,
  windowStatus,
} from './window-time.ts';

const STATUS_COLOR: Record<WindowStatus, string> = { active: 'orange', upcoming: 'blue', ended: 'gray' };

interface SiteWindows {
  key: string;
  /** The site the windows lie in (their times are shown in its zone), or none (the fleet, a company). */
  siteId?: number;
  /** What the group is named after: the site, or the fleet or company its windows aim at. */
  target: TargetInput;
  windows: MaintenanceWindow[];
}

/** `#/maintenance`: active and upcoming maintenance windows by site, in each site's local time; every role. */
export default function MaintenancePage() {
  const { t } = useTranslation();
  useDocumentTitle(t('MAINT_TITLE'));
  const client = useQueryClient();
  const list = useQuery(maintenanceQueries.list());
  const [showEnded, setShowEnded] = useState(false);
  const [creating, setCreating] = useState(false);
  const [ending, setEnding] = useState<MaintenanceWindow | null>(null);
  const now = Date.now();
  const windows = (list.data ?? [])
    .filter((w) => showEnded || windowStatus(w, now) !== 'ended')
    .sort(compareWindows(now));

  // A terminal's window is shown with its site: the preview names the site of each terminal.
  const terminalIds = [
    ...new Set(windows.filter((w) => w.target.scope.kind === 'terminal').map((w) => w.target.scope.id)),
  ];
  const located = useQueries({
    queries: terminalIds.map((id) => ({
      ...targetPreviewQuery({ scope: { kind: 'terminal', id }, tags: [] }, 1),
      staleTime: 5 * 60_000,
    })),
  });
  const siteOfTerminal = new Map<number, number>();
  terminalIds.forEach((id, i) => {
    const site = located[i]?.data?.terminals[0]?.site_id;
    if (site) siteOfTerminal.set(id, site);
  });
  const groups: SiteWindows[] = [];
  for (const w of windows) {
    const { kind, id } = w.target.scope;
    const siteId = kind === 'site' ? id : kind === 'terminal' ? siteOfTerminal.get(id) : undefined;
    const key = siteId ? `site-${siteId}` : `${kind}-${id}`;
    let group = groups.find((g) => g.key === key);
    if (!group) {
      const scope = siteId ? { kind: 'site' as const, id: siteId } : w.target.scope;
      group = { key, siteId, target: { scope, tags: [] }, windows: [] };
      groups.push(group);
    }
    group.windows.push(w);
  }

  const end = useMutation({
    mutationFn: (w: MaintenanceWindow) => endWindow(w.id),
    onSuccess: async () => {
      setEnding(null);
      toast.success(t('MAINT_ENDED_TOAST'));
      await Promise.all([
        client.invalidateQueries({ queryKey: maintenanceQueries.all }),
        client.invalidateQueries({ queryKey: [QUERY_ROOTS.alerts] }),
      ]);
    },
  });
  const closeEnd = () => {
    setEnding(null);
    end.reset();
  };

  return (
    <Stack p="md" gap="md" data-testid="maintenance-page">
      <PageTitleBar
        title={t('MAINT_TITLE')}
        intro={t('MAINT_INTRO')}
        createLabel={t('MAINT_CREATE')}
        onCreate={() => setCreating(true)}
      />
      <Switch
        label={t('MAINT_SHOW_ENDED')}
        checked={showEnded}
        onChange={(e) => setShowEnded(e.currentTarget.checked)}
      />

      {list.isPending ? (
        <LoadingState py="xl" loaderSize="sm" />
      ) : list.isError ? (
        <LoadFailed
          title={t('MAINT_LOAD_FAILED')}
          message={errorText(list.error)}
          onRetry={() => void list.refetch()}
        />
      ) : groups.length === 0 ? (
        <Card withBorder radius="md" py="xl">
          <Text c="dimmed" ta="center">
            {t('MAINT_EMPTY')}
          </Text>
        </Card>
      ) : (
        groups.map((g) => <WindowGroup key={g.key} group={g} now={now} onEnd={setEnding} />)
      )}

      <MaintenanceFormModal opened={creating} onClose={() => setCreating(false)} />
      <Modal
        opened={ending !== null}
        onClose={closeEnd}
        title={t('MAINT_END_TITLE')}
        closeButtonProps={{ 'aria-label': t('CLOSE') }}
      >
        <Stack gap="sm">
          <Text size="sm">{t('MAINT_END_TEXT')}</Text>
          {ending?.reason && (
            <Text size="sm" fw={500}>
              {ending.reason}
            </Text>
          )}
          <DialogActions error={end.error} onCancel={closeEnd}>
            <Button color="red" loading={end.isPending} onClick={() => ending && end.mutate(ending)}>
              {t('MAINT_END_NOW')}
            </Button>
          </DialogActions>
        </Stack>
      </Modal>
    </Stack>
  );
}

function WindowGroup({
  group,
  now,
  onEnd,
}: {
  group: SiteWindows;
  now: number;
  onEnd: (w: MaintenanceWindow) => void;
}) {
  const { t, i18n } = useTranslation();
  const locale = formatLocale(i18n.resolvedLanguage ?? i18n.language);
  const site = useQuery({ ...siteQueries.detail(group.siteId ?? 0), enabled: group.siteId !== undefined });
  const zone = site.data?.timezone;
  const title = useScopeText(group.target);
  const headingId = `maint-group-${group.key}`;
  return (
    <Card withBorder radius="md" padding="md" component="section" aria-labelledby={headingId}>
      <Stack gap="sm">
        <Group justify="space-between" wrap="wrap" gap="xs">
          <Title order={2} fz="md" id={headingId}>
            {title}
          </Title>
          <Text size="xs" c="dimmed">
            {zone ? t('MAINT_SITE_TIME', { zone }) : t('MAINT_YOUR_TIME')}
          </Text>
        </Group>
        <Stack gap="xs" role="list" aria-labelledby={headingId}>
          {group.windows.map((w) => (
            <WindowRow key={w.id} window={w} zone={zone} locale={locale} now={now} onEnd={onEnd} />
          ))}
        </Stack>
      </Stack>
    </Card>
  );
}

function WindowRow({
  window: w,
  zone,
  locale,
  now,
  onEnd,
}: {
  window: MaintenanceWindow;
  zone: string | undefined;
  locale: string;
  now: number;
  onEnd: (w: MaintenanceWindow) => void;
}) {
  const { t } = useTranslation();
  const status = windowStatus(w, now);
  const leaf = calendarLeaf(w.starts_at, zone, locale);
  const schedule = w.recurrence
    ? t('MAINT_WEEKLY_SCHEDULE', {
        days: w.recurrence.weekdays.map((d) => weekdayName(d, locale)).join(', '),
        start: w.recurrence.start,
        duration: w.recurrence.duration_min,
      })
    : `${formatWhen(w.starts_at, zone, locale)} – ${formatWhen(w.ends_at, zone, locale)}`;
  const validity = w.recurrence
    ? t('MAINT_VALID_BETWEEN', {
        from: formatWhen(w.starts_at, zone, locale),
        to: formatWhen(w.ends_at, zone, locale),
      })
    : null;
  const targetNarrower = w.target.scope.kind === 'terminal' || (w.target.tags?.length ?? 0) > 0;
  return (
    <Group
      role="listitem"
      data-window-id={w.id}
      wrap="nowrap"
      align="flex-start"
      gap="sm"
      py={6}
      style={{ borderTop: '1px solid var(--mantine-color-default-border)' }}
    >
      <Box
        w={52}
        ta="center"
        py={4}
        style={{ flexShrink: 0, borderRadius: 8, background: 'var(--mantine-color-default-hover)' }}
        aria-hidden
      >
        <Text fz="lg" fw={700} lh={1.1}>
          {leaf.day}
        </Text>
        <Text fz="xs" c="dimmed" tt="uppercase">
          {leaf.month}
        </Text>
      </Box>
      <Stack gap={2} style={{ flex: 1, minWidth: 0 }}>
        <Group gap={6} wrap="wrap">
          <Badge size="sm" variant="light" color={STATUS_COLOR[status]}>
            {t(`MAINT_STATUS_${status.toUpperCase()}`)}
          </Badge>
          <Badge size="sm" variant="outline" color="gray">
            {t(w.recurrence ? 'MAINT_WEEKLY' : 'MAINT_ONCE')}
          </Badge>
          <Text size="sm" fw={500}>
            {schedule}
          </Text>
        </Group>
        {validity && (
          <Text size="xs" c="dimmed">
            {validity}
          </Text>
        )}
        {targetNarrower && <TargetLabel target={w.target} />}
        <Text size="sm">{w.reason || t('MAINT_NO_REASON')}</Text>
        <Text size="xs" c="dimmed">
          {t('MAINT_DECLARED_BY', { user: w.created_by })}
        </Text>
        {status !== 'ended' && (
          <Button
            size="xs"
            variant="light"
            color="red"
            leftSection={<IconPlayerStop size={14} />}
            onClick={() => onEnd(w)}
            aria-label={t('MAINT_END_NOW_OF', { reason: w.reason || schedule })}
            style={{ alignSelf: 'flex-start' }}
          >
            {t('MAINT_END_NOW')}
          </Button>
        )}
      </Stack>
    </Group>
  );
}
