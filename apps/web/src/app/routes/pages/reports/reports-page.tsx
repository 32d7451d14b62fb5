import type {
  AlertsReportRow,
  AvailabilityRow,
  ReportGroup,
  ReportSchedule,
} from '@forecourt/contract/reports';
import {
  Alert,
  Button,
  Card,
  Group,
  Loader,
  SegmentedControl,
  Select,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { RowButton } from '../../../../components/page-parts.tsx';
import { PlainTable } from '../../../../components/plain-table.tsx';
import { formatLocale } from '../../../../i18n/languages.ts';
import { errorText } from '../../../../lib/api-client.ts';
import type { Scope } from '../../../../lib/scope.ts';
import { useDocumentTitle } from '../../../../lib/use-document-title.ts';
import { ReportScopeSelect, scopeParam, useReportScope } from './report-scope.tsx';
import {
  createSchedule,
  deleteSchedule,
  downloadReport,
  PERIOD_PRESETS,
  type Period,
  type PeriodPreset,
  periodOf,
  reportFileUrl,
  reportQueries,
  runSchedule,
} from './reports-queries.ts';

// Chart.js comes with the chart, once there is something to draw.
const AvailabilityChart = lazy(() => import('./availability-chart.tsx'));

/** A number column (aligned to the end) hidden on a phone. */
const WIDE_END = { ta: 'end', visibleFrom: 'sm' } as const;

const PRESET_LABELS: Record<PeriodPreset, string> = {
  '7d': 'REPORTS_PRESET_7D',
  '30d': 'REPORTS_PRESET_30D',
  'last-month': 'REPORTS_PRESET_LAST_MONTH',
  custom: 'REPORTS_PRESET_CUSTOM',
};

/** Seconds as the largest sensible unit ("42 min", "3.5 h"); a dash for none. */
function useDuration() {
  const { t } = useTranslation();
  return useCallback(
    (s: number | null) => {
      if (s === null) return '–';
      if (s < 60) return t('REPORTS_SECONDS', { n: s });
      if (s < 3600) return t('REPORTS_MINUTES', { n: Math.round(s / 60) });
      if (s < 86_400) return t('REPORTS_HOURS', { n: (s / 3600).toFixed(1) });
      return t('REPORTS_DAYS', { n: (s / 86_400).toFixed(1) });
    },
    [t],
  );
}

/**
 * `#/reports`: availability and alerts over a period of the user's own scope or a company or site inside it
 * (`?scope=`, report-scope.tsx), files, and schedules (created for the scope shown).
 */
export default function ReportsPage() {
  const { t } = useTranslation();
  const { scope, setScope, options } = useReportScope();
  useDocumentTitle(t('REPORTS_TITLE'));
  return (
    <Stack gap="md">
      <Title order={1} fz="h2">
        {t('REPORTS_TITLE')}
      </Title>
      {scope ? (
        <Reports scope={scope} setScope={setScope} options={options} />
      ) : (
        <Text c="dimmed">{t('REPORTS_NO_SCOPE')}</Text>
      )}
    </Stack>
  );
}

type ScopeOptions = ReturnType<typeof useReportScope>['options'];

/** The label of a scope among the picker's options (a schedule's scope), else its kind and id. */
function scopeName(options: ScopeOptions, scope: Scope): string {
  const value = scopeParam(scope);
  for (const g of options) for (const o of g.items) if (o.value === value) return o.label;
  return `${scope.kind} ${scope.id}`;
}

function Reports({
  scope,
  setScope,
  options,
}: {
  scope: Scope;
  setScope: (scope: Scope) => void;
  options: ScopeOptions;
}) {
  const { t } = useTranslation();
  const [preset, setPreset] = useState<PeriodPreset>('30d');
  const [custom, setCustom] = useState({ from: '', to: '' });
  const [groupBy, setGroupBy] = useState<ReportGroup>('site');
  // The end of a preset is when it was picked: refetches ask for the same period.
  const [pickedAt, setPickedAt] = useState(() => new Date());
  const period = useMemo(() => periodOf(preset, pickedAt, custom), [preset, pickedAt, custom]);

  return (
    <>
      <Card withBorder>
        <Group gap="md" align="end" wrap="wrap">
          <ReportScopeSelect scope={scope} options={options} onChange={setScope} />
          <Stack gap={4}>
            <Text fw={500} fz="sm" id="reports-period-label">
              {t('REPORTS_PERIOD')}
            </Text>
            <SegmentedControl
              aria-labelledby="reports-period-label"
              value={preset}
              onChange={(v) => {
                setPreset(v as PeriodPreset);
                setPickedAt(new Date());
              }}
              data={PERIOD_PRESETS.map((p) => ({ value: p, label: t(PRESET_LABELS[p]) }))}
            />
          </Stack>
          {preset === 'custom' && (
            <>
              <TextInput
                type="date"
                label={t('REPORTS_FROM')}
                value={custom.from}
                onChange={(e) => setCustom((c) => ({ ...c, from: e.currentTarget.value }))}
              />
              <TextInput
                type="date"
                label={t('REPORTS_TO')}
                value={custom.to}
                onChange={(e) => setCustom((c) => ({ ...c, to: e.currentTarget.value }))}
              />
            </>
          )}
          {scope.kind !== 'site' && (
            <Stack gap={4}>
              <Text fw={500} fz="sm" id="reports-group-label">
                {t('REPORTS_GROUP_BY')}
              </Text>
              <SegmentedControl
                aria-labelledby="reports-group-label"
                value={groupBy}
                onChange={(v) => setGroupBy(v as ReportGroup)}
                data={[
                  { value: 'site', label: t('REPORTS_BY_SITE') },
                  { value: 'terminal', label: t('REPORTS_BY_TERMINAL') },
                ]}
              />
            </Stack>
          )}
        </Group>
        {preset === 'custom' && !period && (
          <Text c="dimmed" fz="sm" mt="xs">
            {t('REPORTS_CUSTOM_HINT')}
          </Text>
        )}
      </Card>
      {period && (
        <>
          <AvailabilitySection
            scope={scope}
            period={period}
            groupBy={scope.kind === 'site' ? 'terminal' : groupBy}
          />
          <AlertsSection scope={scope} period={period} />
        </>
      )}
      <SchedulesSection scope={scope} options={options} />
    </>
  );
}

function DownloadButtons({ url, what }: { url: (format: 'csv' | 'pdf') => string; what: string }) {
  const { t } = useTranslation();
  const [error, setError] = useState<string | null>(null);
  const get = (format: 'csv' | 'pdf') => {
    setError(null);
    downloadReport(url(format)).catch((e: unknown) => setError(errorText(e)));
  };
  return (
    <Group gap="xs">
      {(['csv', 'pdf'] as const).map((format) => (
        <Button
          key={format}
          variant="default"
          size="xs"
          onClick={() => get(format)}
          aria-label={t(`REPORTS_DOWNLOAD_${format.toUpperCase()}`, { what })}
        >
          {format.toUpperCase()}
        </Button>
      ))}
      {error && (
        <Text c="red" fz="sm" role="alert">
          {error}
        </Text>
      )}
    </Group>
  );
}

function AvailabilitySection({
  scope,
  period,
  groupBy,
}: {
  scope: Scope;
  period: Period;
  groupBy: ReportGroup;
}) {
  const { t, i18n } = useTranslation();
  const locale = formatLocale(i18n.resolvedLanguage ?? i18n.language);
  const duration = useDuration();
  const query = useQuery(reportQueries.availability(scope, period, groupBy));
  const percent = useMemo(() => {
    const f = new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 2 });
    return (v: number) => f.format(v);
  }, [locale]);
  const chartPercent = useCallback((v: number) => percent(v / 100), [percent]);
  const title = t('REPORTS_AVAILABILITY');
  const worst = (query.data?.rows ?? []).filter((r) => r.availability < 1).slice(0, 10);
  type Line = { r: AvailabilityRow | NonNullable<typeof query.data>['total']; total: boolean };
  const lines: Line[] = query.data
    ? [...query.data.rows.map((r) => ({ r, total: false })), { r: query.data.total, total: true }]
    : [];
  return (
    <Card withBorder component="section" aria-labelledby="reports-availability">
      <Group justify="space-between" mb="sm" wrap="wrap">
        <Title order={2} fz="h4" id="reports-availability">
          {title}
        </Title>
        <DownloadButtons
          what={title}
          url={(format) => reportFileUrl(scope, 'availability', period, format, groupBy)}
        />
      </Group>
      {query.isPending && <Loader size="sm" aria-label={t('REPORTS_LOADING')} />}
      {query.isError && <Alert color="red">{errorText(query.error)}</Alert>}
      {query.data && (
        <Stack gap="md">
          {worst.length > 0 ? (
            <Suspense fallback={<Loader size="sm" aria-label={t('REPORTS_LOADING')} />}>
              <AvailabilityChart
                rows={worst}
                label={t(groupBy === 'site' ? 'REPORTS_CHART_WORST_SITES' : 'REPORTS_CHART_WORST_TERMINALS')}
                formatPercent={chartPercent}
                rtl={i18n.dir() === 'rtl'}
              />
            </Suspense>
          ) : (
            <Text c="dimmed" fz="sm">
              {t('REPORTS_NO_DOWNTIME')}
            </Text>
          )}
          <PlainTable<Line>
            striped
            aria-label={title}
            minWidth={320}
            rows={lines}
            rowKey={({ r, total }) => (total || r.id === null ? 'total' : r.id)}
            rowProps={({ total }) => ({ fw: total ? 700 : undefined })}
            columns={[
              {
                label: t(groupBy === 'site' ? 'REPORTS_SITE' : 'REPORTS_TERMINAL'),
                cell: ({ r, total }) => (total ? t('REPORTS_TOTAL') : r.name),
              },
              { label: t('REPORTS_AVAILABILITY_COL'), ta: 'end', cell: ({ r }) => percent(r.availability) },
              { label: t('REPORTS_DOWNTIME'), ta: 'end', cell: ({ r }) => duration(r.downtime_s) },
              { label: t('REPORTS_MAINTENANCE'), ...WIDE_END, cell: ({ r }) => duration(r.excluded_s) },
              { label: t('REPORTS_INCIDENTS'), ta: 'end', cell: ({ r }) => r.incidents },
              { label: t('REPORTS_MTTA'), ...WIDE_END, cell: ({ r }) => duration(r.mtta_s) },
              { label: t('REPORTS_MTTR'), ...WIDE_END, cell: ({ r }) => duration(r.mttr_s) },
            ]}
          />
        </Stack>
      )}
    </Card>
  );
}

function AlertsSection({ scope, period }: { scope: Scope; period: Period }) {
  const { t } = useTranslation();
  const duration = useDuration();
  const query = useQuery(reportQueries.alerts(scope, period));
  const title = t('REPORTS_ALERTS');
  return (
    <Card withBorder component="section" aria-labelledby="reports-alerts">
      <Group justify="space-between" mb="sm" wrap="wrap">
        <Title order={2} fz="h4" id="reports-alerts">
          {title}
        </Title>
        <DownloadButtons what={title} url={(format) => reportFileUrl(scope, 'alerts', period, format)} />
      </Group>
      {query.isPending && <Loader size="sm" aria-label={t('REPORTS_LOADING')} />}
      {query.isError && <Alert color="red">{errorText(query.error)}</Alert>}
      {query.data &&
        (query.data.length === 0 ? (
          <Text c="dimmed" fz="sm">
            {t('REPORTS_NO_ALERTS')}
          </Text>
        ) : (
          <PlainTable<AlertsReportRow>
            striped
            aria-label={title}
            minWidth={320}
            rows={query.data}
            rowKey={(r) => r.event_type}
            columns={[
              { label: t('REPORTS_EVENT_TYPE'), cell: (r) => r.name },
              { label: t('REPORTS_SEVERITY'), visibleFrom: 'sm', cell: (r) => r.severity },
              { label: t('REPORTS_COUNT'), ta: 'end', cell: (r) => r.count },
              { label: t('REPORTS_SILENCED'), ...WIDE_END, cell: (r) => r.silenced },
              { label: t('REPORTS_ACKNOWLEDGED'), ...WIDE_END, cell: (r) => r.acknowledged },
              { label: t('REPORTS_CLEARED'), ...WIDE_END, cell: (r) => r.cleared },
              { label: t('REPORTS_MTTA'), ta: 'end', cell: (r) => duration(r.mtta_s) },
              { label: t('REPORTS_MTTR'), ta: 'end', cell: (r) => duration(r.mttr_s) },
              { label: t('REPORTS_P90_TTR'), ...WIDE_END, cell: (r) => duration(r.p90_ttr_s) },
            ]}
          />
        ))}
    </Card>
  );
}

/** A select of a few fixed choices (value: label), one always chosen. */
function ChoiceSelect<V extends string>({
  label,
  value,
  onChange,
  choices,
  w,
}: {
  label: string;
  value: V;
  onChange: (value: V) => void;
  choices: Record<V, string>;
  w: number;
}) {
  return (
    <Select
      label={label}
      value={value}
      onChange={(v) => v && onChange(v as V)}
      data={Object.entries<string>(choices).map(([v, l]) => ({ value: v, label: l }))}
      allowDeselect={false}
      w={w}
    />
  );
}

function SchedulesSection({ scope, options }: { scope: Scope; options: ScopeOptions }) {
  const { t, i18n } = useTranslation();
  const locale = formatLocale(i18n.resolvedLanguage ?? i18n.language);
  const client = useQueryClient();
  const query = useQuery(reportQueries.schedules());
  const [report, setReport] = useState<'availability' | 'alerts'>('availability');
  const [every, setEvery] = useState<'week' | 'month'>('week');
  const [format, setFormat] = useState<'pdf' | 'csv'>('pdf');
  const [recipients, setRecipients] = useState('');
  const [notice, setNotice] = useState<string | null>(null);
  const refresh = () => client.invalidateQueries({ queryKey: reportQueries.schedules().queryKey });
  const create = useMutation({
    mutationFn: () =>
      createSchedule({
        report,
        scope: { kind: scope.kind, id: scope.id },
        every,
        format,
        recipients: recipients
          .split(/[,;\s]+/)
          .map((r) => r.trim())
          .filter(Boolean),
      }),
    onSuccess: () => {
      setRecipients('');
      void refresh();
    },
  });
  const remove = useMutation({ mutationFn: deleteSchedule, onSuccess: () => void refresh() });
  const run = useMutation({
    mutationFn: runSchedule,
    onSuccess: () => setNotice(t('REPORTS_RUN_QUEUED')),
  });
  const when = useMemo(
    () => new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' }),
    [locale],
  );
  const label = (s: ReportSchedule) =>
    `${t(s.report === 'availability' ? 'REPORTS_AVAILABILITY' : 'REPORTS_ALERTS')} · ${t(
      s.every === 'week' ? 'REPORTS_WEEKLY' : 'REPORTS_MONTHLY',
    )} · ${s.format.toUpperCase()} · ${scopeName(options, s.scope)}`;
  const error = create.error ?? remove.error ?? run.error;
  return (
    <Card withBorder component="section" aria-labelledby="reports-schedules">
      <Title order={2} fz="h4" id="reports-schedules" mb="sm">
        {t('REPORTS_SCHEDULES')}
      </Title>
      <Stack gap="sm">
        {query.isPending && <Loader size="sm" aria-label={t('REPORTS_LOADING')} />}
        {query.data && query.data.length === 0 && (
          <Text c="dimmed" fz="sm">
            {t('REPORTS_NO_SCHEDULES')}
          </Text>
        )}
        {query.data && query.data.length > 0 && (
          <PlainTable<ReportSchedule>
            aria-label={t('REPORTS_SCHEDULES')}
            minWidth={320}
            rows={query.data}
            rowKey={(s) => s.id}
            columns={[
              { label: t('REPORTS_SCHEDULE'), cell: label },
              { label: t('REPORTS_RECIPIENTS'), visibleFrom: 'sm', cell: (s) => s.recipients.join(', ') },
              {
                label: t('REPORTS_NEXT_RUN'),
                visibleFrom: 'sm',
                cell: (s) => `${when.format(new Date(s.next_run_at))} UTC`,
              },
              {
                label: t('REPORTS_ACTIONS'),
                cell: (s) => (
                  <Group gap="xs" wrap="nowrap">
                    <RowButton
                      onClick={() => run.mutate(s.id)}
                      aria-label={t('REPORTS_RUN_NOW_OF', { name: label(s) })}
                    >
                      {t('REPORTS_RUN_NOW')}
                    </RowButton>
                    <RowButton
                      danger
                      onClick={() => remove.mutate(s.id)}
                      aria-label={t('REPORTS_DELETE_OF', { name: label(s) })}
                    >
                      {t('REPORTS_DELETE')}
                    </RowButton>
                  </Group>
                ),
              },
            ]}
          />
        )}
        <form
          onSubmit={(e) => {
            e.preventDefault();
            create.mutate();
          }}
        >
          <Group gap="sm" align="end" wrap="wrap">
            <ChoiceSelect
              label={t('REPORTS_REPORT')}
              value={report}
              onChange={setReport}
              choices={{ availability: t('REPORTS_AVAILABILITY'), alerts: t('REPORTS_ALERTS') }}
              w={170}
            />
            <ChoiceSelect
              label={t('REPORTS_EVERY')}
              value={every}
              onChange={setEvery}
              choices={{ week: t('REPORTS_WEEKLY'), month: t('REPORTS_MONTHLY') }}
              w={140}
            />
            <ChoiceSelect
              label={t('REPORTS_FORMAT')}
              value={format}
              onChange={setFormat}
              choices={{ pdf: 'PDF', csv: 'CSV' }}
              w={100}
            />
            <TextInput
              label={t('REPORTS_RECIPIENTS')}
              placeholder="ops@example.com"
              value={recipients}
              onChange={(e) => setRecipients(e.currentTarget.value)}
              style={{ flex: '1 1 14rem' }}
            />
            <Button type="submit" loading={create.isPending} disabled={!recipients.trim()}>
              {t('REPORTS_ADD_SCHEDULE')}
            </Button>
          </Group>
        </form>
        {error && (
          <Alert color="red" role="alert">
            {errorText(error)}
          </Alert>
        )}
        {notice && !error && (
          <Text fz="sm" role="status">
            {notice}
          </Text>
        )}
      </Stack>
    </Card>
  );
}
