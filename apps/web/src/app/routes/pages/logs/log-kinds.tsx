import { COMMAND_STATES } from '@forecourt/contract/commands';
import { EVENT_CATALOGUE } from '@forecourt/contract/events';
import { LOG_PATHS, type LogKindKey } from '@forecourt/contract/log-paths';
import {
  AlertLogEntrySchema,
  BatteryLogEntrySchema,
  ConnectivityLogEntrySchema,
  EnvironmentLogEntrySchema,
  FlashDriveLogEntrySchema,
  PumpActivationLogRowSchema,
  PumpStatusLogRowSchema,
  RebootLogEntrySchema,
  ShockLogEntrySchema,
} from '@forecourt/contract/logs';
import { isPumpStatusNormal } from '@forecourt/contract/pumps';
import { Badge, Text } from '@mantine/core';
import type { TFunction } from 'i18next';
import type { ReactNode } from 'react';
import type { ZodType, z } from 'zod';
import { AlertAck, SeverityBadge } from '../../../../components/alerts/alert-ack.tsx';
import { SilencedBadge } from '../../../../components/alerts/silenced-badge.tsx';
import { CommandStateBadge, commandStateKey } from '../../../../components/command-state.tsx';
import { TerminalLink } from '../../../../components/terminal-link.tsx';

/** What every log row has: an id, its paging cursor and its site's zone. */
export interface LogRowBase {
  id: number;
  cursor: string;
  timezone: string;
}

export interface CellContext {
  t: TFunction;
  /** The row's time in its site's zone, with the zone's short name. */
  time: (iso: string | null | undefined, row: LogRowBase) => string;
  /** The site of a site's log: its rows' terminals link to their pages under it. */
  siteId?: number;
}

export interface LogColumn<Row> {
  key: string;
  /** Translation key of the header. */
  label: string;
  render: (row: Row, ctx: CellContext) => ReactNode;
  /** Hidden on small screens. @default false */
  wide?: boolean;
  /** Kept on one line (times, badges). @default false */
  nowrap?: boolean;
}

export type FilterType = 'text' | 'number' | 'select' | 'multi' | 'checkbox';

/** A filter of the log's API (docs/api-logs.md); its value lives in the URL under `name`. */
export interface LogFilter {
  name: string;
  type: FilterType;
  /** Translation key of the label. */
  label: string;
  options?: (t: TFunction) => Array<{ value: string; label: string }>;
  /**
   * How the filter's value (undefined when unset) reaches the API, when not as `name=value`: a switch whose
   * default asks the API for something (the alert logs leave out silenced alerts until "Show silenced" is on).
   */
  toApi?: (value: string | string[] | undefined) => Record<string, string>;
}

export interface LogKind<Row extends LogRowBase = LogRowBase> {
  key: LogKindKey;
  /** Translation key of the page title. */
  title: string;
  /** Path below `/api/{scope}/{id}/` (the same as the screen's). */
  apiPath: string;
  schema: ZodType<Row>;
  columns: LogColumn<Row>[];
  filters: LogFilter[];
  /** Rows shown muted (dimmed): alerts silenced by a maintenance window. */
  muted?: (row: Row) => boolean;
}

/** A badge's label clips by default, which lets a table squeeze it to 'FAI…'; a cell badge keeps its word. */
const BADGE_STYLES = {
  root: { overflow: 'visible', flexShrink: 0 },
  label: { overflow: 'visible' },
} as const;

const terminal: LogFilter = { name: 'terminal', type: 'text', label: 'LOG_FILTER_TERMINAL' };

const eventTypeOptions =
  (hardwareOnly: boolean) =>
  (t: TFunction): Array<{ value: string; label: string }> =>
    EVENT_CATALOGUE.filter((e) => !hardwareOnly || e.hardware).map((e) => ({
      value: String(e.code),
      label: `${e.code} · ${t(`LOG_EVENT_${e.code}`, { defaultValue: e.name })}`,
    }));

const commandStates = (t: TFunction) =>
  COMMAND_STATES.map((s) => ({ value: s, label: t(commandStateKey(s)) }));

/** The terminal column of a log whose rows name their terminal's site and id: `number` links to its page. */
function terminalColumn<Row extends { site_id?: number | null; terminal_id?: number | null }>(
  key: string,
  number: (row: Row) => ReactNode,
  wide = false,
): LogColumn<Row> {
  return {
    key,
    label: 'LOG_COL_TERMINAL',
    render: (r) => (
      <TerminalLink siteId={r.site_id} terminalId={r.terminal_id}>
        {number(r)}
      </TerminalLink>
    ),
    ...(wide ? { wide } : {}),
  };
}

const num = (v: number | null | undefined, unit = '') =>
  v === null || v === undefined ? '-' : `${Math.round(v * 10) / 10}${unit}`;

type Alert = z.output<typeof AlertLogEntrySchema> & LogRowBase;
const alertColumns: LogColumn<Alert>[] = [
  { key: 'started_at', label: 'LOG_COL_DATE', render: (r, c) => c.time(r.started_at, r), nowrap: true },
  {
    key: 'issue',
    label: 'LOG_COL_EVENT',
    render: (r) => (
      <>
        <Text fw={600} size="sm">
          {r.issue}
        </Text>
        {r.silenced && <SilencedBadge />}
      </>
    ),
  },
  { key: 'text', label: 'LOG_COL_TEXT', render: (r) => r.text, wide: true },
  terminalColumn('number', (r) => r.number),
  { key: 'site_name', label: 'LOG_COL_SITE', render: (r) => r.site_name },
  { key: 'customer_name', label: 'LOG_COL_COMPANY', render: (r) => r.customer_name, wide: true },
  {
    key: 'severity',
    label: 'SEVERITY',
    nowrap: true,
    render: (r) => <SeverityBadge severity={r.severity} />,
  },
  {
    key: 'state',
    label: 'ALERT_STATE',
    nowrap: true,
    render: (r, c) => (
      <Badge
        color={r.state === 'active' ? 'red' : 'gray'}
        variant={r.state === 'active' ? 'light' : 'outline'}
        radius="sm"
        styles={BADGE_STYLES}
        title={r.cleared_at ? c.time(r.cleared_at, r) : undefined}
      >
        {c.t(r.state === 'active' ? 'ALERT_ACTIVE' : 'ALERT_CLEARED')}
      </Badge>
    ),
  },
  { key: 'acknowledged', label: 'ACKNOWLEDGED', render: (r) => <AlertAck alert={r} /> },
];

/** The alert lifecycle filters of the alert logs (docs/product.md#alert-lifecycle). */
const alertLifecycleFilters: LogFilter[] = [
  {
    name: 'state',
    type: 'select',
    label: 'ALERT_STATE',
    options: (t) => [
      { value: 'active', label: t('ALERT_ACTIVE') },
      { value: 'cleared', label: t('ALERT_CLEARED') },
    ],
  },
  {
    name: 'acknowledged',
    type: 'select',
    label: 'ACKNOWLEDGED',
    options: (t) => [
      { value: 'true', label: t('ACKNOWLEDGED_YES') },
      { value: 'false', label: t('ACKNOWLEDGED_NO') },
    ],
  },
  { name: 'rule_id', type: 'number', label: 'LOG_FILTER_RULE' },
  {
    name: 'show_silenced',
    type: 'checkbox',
    label: 'SHOW_SILENCED',
    toApi: (value): Record<string, string> => (value === 'true' ? {} : { silenced: 'false' }),
  },
];

type Telemetry = {
  terminal: { terminal_id: string; id: number };
  customer: string;
  created_at: string;
} & LogRowBase;
const telemetryHead: LogColumn<Telemetry>[] = [
  { key: 'created_at', label: 'LOG_COL_DATE', render: (r, c) => c.time(r.created_at, r), nowrap: true },
  {
    key: 'terminal',
    label: 'LOG_COL_TERMINAL',
    render: (r, c) => (
      <TerminalLink siteId={c.siteId} terminalId={r.terminal.id}>
        {r.terminal.terminal_id}
      </TerminalLink>
    ),
  },
];
const telemetrySite: LogColumn<Telemetry> = {
  key: 'customer',
  label: 'LOG_COL_SITE',
  render: (r) => r.customer,
  wide: true,
};

/** What every command log shows: when it was asked for, by whom, and when it ended. */
type CommandRow = {
  created_at: string;
  requested_by: string | null;
  completed_at?: string | null;
} & LogRowBase;
const commandRequested: LogColumn<CommandRow> = {
  key: 'created_at',
  label: 'LOG_COL_REQUESTED',
  render: (r, c) => c.time(r.created_at, r),
  nowrap: true,
};
const commandTail: LogColumn<CommandRow>[] = [
  { key: 'requested_by', label: 'LOG_COL_REQUESTED_BY', render: (r) => r.requested_by ?? '-', wide: true },
  {
    key: 'completed_at',
    label: 'LOG_COL_COMPLETED',
    render: (r, c) => (r.completed_at ? c.time(r.completed_at, r) : '-'),
    wide: true,
    nowrap: true,
  },
];

function kind<S extends ZodType<LogRowBase>>(
  key: LogKindKey,
  title: string,
  schema: S,
  columns: LogColumn<z.output<S>>[],
  filters: LogFilter[],
  muted?: (row: z.output<S>) => boolean,
): LogKind {
  return {
    key,
    title,
    apiPath: LOG_PATHS[key].path,
    schema,
    columns: columns as unknown as LogColumn<LogRowBase>[],
    filters,
    muted: muted as ((row: LogRowBase) => boolean) | undefined,
  };
}

const silencedAlert = (row: { silenced?: boolean }) => row.silenced === true;

/** A terminal telemetry log: its date and terminal, then `columns`; filtered by terminal. */
function telemetryKind<S extends ZodType<Telemetry>>(
  key: LogKindKey,
  title: string,
  schema: S,
  columns: LogColumn<z.output<S>>[],
): LogKind {
  const head = telemetryHead as LogColumn<z.output<S>>[];
  return kind(key, title, schema, [...head, ...columns], [terminal]);
}

/** Each log screen: its API, columns and filters (docs/api-logs.md). */
export const LOG_KINDS: Record<LogKindKey, LogKind> = {
  alert: kind(
    'alert',
    'LOG_TITLE_ALERT',
    AlertLogEntrySchema,
    alertColumns,
    [
      { name: 'event_type', type: 'multi', label: 'LOG_FILTER_EVENT_TYPE', options: eventTypeOptions(false) },
      terminal,
      ...alertLifecycleFilters,
    ],
    silencedAlert,
  ),
  hardware: kind(
    'hardware',
    'LOG_TITLE_HARDWARE',
    AlertLogEntrySchema,
    alertColumns,
    [
      { name: 'event_type', type: 'multi', label: 'LOG_FILTER_EVENT_TYPE', options: eventTypeOptions(true) },
      terminal,
      ...alertLifecycleFilters,
    ],
    silencedAlert,
  ),
  connectivity: kind(
    'connectivity',
    'LOG_TITLE_CONNECTIVITY',
    ConnectivityLogEntrySchema,
    [
      { key: 'date', label: 'LOG_COL_DATE', render: (r, c) => c.time(r.date, r), nowrap: true },
      {
        key: 'status',
        label: 'LOG_COL_STATUS',
        nowrap: true,
        render: (r, c) => (
          <Badge color={r.status === 'on' ? 'teal' : 'red'} variant="light" radius="sm" styles={BADGE_STYLES}>
            {c.t(r.status === 'on' ? 'LOG_ONLINE' : 'LOG_OFFLINE')}
          </Badge>
        ),
      },
      terminalColumn('number', (r) => r.number),
      { key: 'title', label: 'LOG_COL_SITE', render: (r) => r.title },
      { key: 'customer_name', label: 'LOG_COL_COMPANY', render: (r) => r.customer_name, wide: true },
    ],
    [
      {
        name: 'status',
        type: 'select',
        label: 'LOG_FILTER_STATUS',
        options: (t) => [
          { value: 'on', label: t('LOG_ONLINE') },
          { value: 'off', label: t('LOG_OFFLINE') },
        ],
      },
      terminal,
    ],
  ),
  reboot: kind(
    'reboot',
    'LOG_TITLE_REBOOT',
    RebootLogEntrySchema,
    [
      commandRequested,
      terminalColumn('terminal_number', (r) => r.terminal_number),
      { key: 'site_title', label: 'LOG_COL_SITE', render: (r) => r.site_title, wide: true },
      {
        key: 'reboot_type',
        label: 'LOG_COL_REBOOT_TYPE',
        render: (r, c) => (r.reboot_type ? c.t(`LOG_REBOOT_${r.reboot_type.toUpperCase()}`) : '-'),
      },
      {
        key: 'status',
        label: 'LOG_COL_STATUS',
        nowrap: true,
        render: (r) => <CommandStateBadge state={r.state} />,
      },
      ...commandTail,
      { key: 'detail', label: 'LOG_COL_DETAIL', render: (r) => r.detail ?? '', wide: true },
    ],
    [{ name: 'state', type: 'multi', label: 'LOG_FILTER_STATE', options: commandStates }, terminal],
  ),
  'pump-activation': kind(
    'pump-activation',
    'LOG_TITLE_PUMP_ACTIVATION',
    PumpActivationLogRowSchema,
    [
      commandRequested,
      { key: 'site', label: 'LOG_COL_SITE', render: (r) => r.site, wide: true },
      { key: 'pump_no', label: 'LOG_COL_PUMP', render: (r) => r.pump_no },
      {
        key: 'kind',
        label: 'LOG_COL_ACTION',
        render: (r, c) => c.t(r.kind === 'pump_on' ? 'LOG_TURN_ON' : 'LOG_TURN_OFF'),
      },
      {
        key: 'state',
        label: 'LOG_COL_STATE',
        nowrap: true,
        render: (r) => <CommandStateBadge state={r.state} />,
      },
      ...commandTail,
      terminalColumn('terminal_number', (r) => r.terminal_number, true),
    ],
    [
      { name: 'pump', type: 'number', label: 'LOG_FILTER_PUMP' },
      { name: 'state', type: 'multi', label: 'LOG_FILTER_STATE', options: commandStates },
      terminal,
    ],
  ),
  'pump-status': kind(
    'pump-status',
    'LOG_TITLE_PUMP_STATUS',
    PumpStatusLogRowSchema,
    [
      { key: 'created_at', label: 'LOG_COL_DATE', render: (r, c) => c.time(r.created_at, r), nowrap: true },
      { key: 'pump_no', label: 'LOG_COL_PUMP', render: (r) => r.pump_no },
      {
        key: 'status',
        label: 'LOG_COL_STATUS_CODE',
        render: (r) => (
          <Badge
            color={isPumpStatusNormal(r.status) ? 'teal' : 'orange'}
            variant="light"
            radius="sm"
            styles={BADGE_STYLES}
          >
            {r.status}
          </Badge>
        ),
      },
      {
        key: 'reported_status',
        label: 'LOG_COL_REPORTED',
        render: (r, c) => c.t(r.reported_status === 1 ? 'LOG_ON' : 'LOG_OFF'),
      },
      { key: 'text', label: 'LOG_COL_TEXT', render: (r) => r.text },
    ],
    [
      { name: 'pump', type: 'number', label: 'LOG_FILTER_PUMP' },
      { name: 'abnormal', type: 'checkbox', label: 'LOG_FILTER_ABNORMAL' },
    ],
  ),
  shock: kind(
    'shock',
    'LOG_TITLE_SHOCK',
    ShockLogEntrySchema,
    [
      { key: 'created_at', label: 'LOG_COL_DATE', render: (r, c) => c.time(r.created_at, r), nowrap: true },
      { key: 'reading', label: 'LOG_COL_LEVEL', render: (r) => r.reading },
      { key: 'site_title', label: 'LOG_COL_SITE', render: (r) => r.site_title },
      {
        key: 'terminal',
        label: 'LOG_COL_TERMINAL',
        render: (r) => (
          <TerminalLink siteId={r.terminal.site} terminalId={r.terminal.id}>
            {r.terminal.terminal_id}
          </TerminalLink>
        ),
      },
    ],
    [{ name: 'min', type: 'number', label: 'LOG_FILTER_MIN_LEVEL' }, terminal],
  ),
  battery: telemetryKind('battery', 'LOG_TITLE_BATTERY', BatteryLogEntrySchema, [
    { key: 'life', label: 'LOG_COL_BATTERY_LIFE', render: (r) => num(r.life, '%') },
    telemetrySite,
  ]),
  flashdrive: telemetryKind('flashdrive', 'LOG_TITLE_FLASHDRIVE', FlashDriveLogEntrySchema, [
    { key: 'left', label: 'LOG_COL_FLASH_LEFT', render: (r) => num(r.left, '%') },
    telemetrySite,
  ]),
  environment: telemetryKind('environment', 'LOG_TITLE_ENVIRONMENT', EnvironmentLogEntrySchema, [
    { key: 'board', label: 'LOG_COL_BOARD_TEMP', render: (r) => num(r.temperature_main_board, ' °C') },
    {
      key: 'cabinet',
      label: 'LOG_COL_CABINET_TEMP',
      render: (r) => num(r.temperature_inside_cabinet, ' °C'),
    },
    { key: 'humidity', label: 'LOG_COL_HUMIDITY', render: (r) => num(r.humidity_inside_cabinet, ' %') },
  ]),
};
