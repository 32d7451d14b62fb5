import { HARDWARE_EVENT_TYPES } from '@forecourt/contract/events';
import { companySiteHardwareLogApiPath, type LogKindKey, logApiPath } from '@forecourt/contract/log-paths';
import {
  AlertLogEntrySchema,
  AlertLogQuerySchema,
  BatteryLogEntrySchema,
  CommandLogQuerySchema,
  ConnectivityLogEntrySchema,
  ConnectivityLogQuerySchema,
  EnvironmentLogEntrySchema,
  FlashDriveLogEntrySchema,
  PumpActivationLogRowSchema,
  PumpStatusLogQuerySchema,
  PumpStatusLogRowSchema,
  RebootLogEntrySchema,
  ShockLogEntrySchema,
  ShockLogQuerySchema,
  TelemetryLogQuerySchema,
} from '@forecourt/contract/logs';
import { SCOPE_KINDS, type ScopeKind } from '@forecourt/contract/scope';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { type CsvColumn, logRoute } from '../../lib/read-routes.ts';
import type { TelemetryKind, TelemetryLogRow } from '../../repositories/log-repository.ts';
import type { ReadScope } from '../../repositories/read-scope.ts';

type AlertEntry = z.output<typeof AlertLogEntrySchema>;
const alertCsv: CsvColumn<AlertEntry>[] = [
  ['id', (r) => r.id],
  ['started_at', (r) => r.started_at],
  ['created_at', (r) => r.created_at],
  ['event_type', (r) => r.event_type],
  ['issue', (r) => r.issue],
  ['text', (r) => r.text],
  ['terminal', (r) => r.number],
  ['site', (r) => r.site_name],
  ['company', (r) => r.customer_name],
  ['severity', (r) => r.severity],
  ['state', (r) => r.state],
  ['cleared_at', (r) => r.cleared_at],
  ['acknowledged_at', (r) => r.acknowledged_at],
  ['acknowledged_by', (r) => r.acknowledged_by],
  ['note', (r) => r.note],
  ['rule_id', (r) => r.rule_id],
  ['silenced', (r) => r.silenced],
  ['maintenance_id', (r) => r.maintenance_id],
];

/** The alert lifecycle filters of an alert log query (docs/product.md#alert-lifecycle). */
const lifecycle = (q: {
  state?: 'active' | 'cleared';
  acknowledged?: boolean;
  silenced?: boolean;
  rule_id?: number;
}) => ({
  state: q.state,
  acknowledged: q.acknowledged,
  silenced: q.silenced,
  ruleId: q.rule_id,
});

/** The route of a log: `/api/site/:id/pump/status/log/`. */
const api = (log: LogKindKey, scope: ScopeKind) => logApiPath(log, scope, ':id');

const hardwareOnly = (types: number[] | undefined): number[] => {
  const hw = HARDWARE_EVENT_TYPES;
  if (!types?.length) return [...hw];
  const picked = types.filter((t) => hw.includes(t));
  // Asking only for non-hardware types in the hardware log matches nothing.
  return picked.length ? picked : [-1];
};

/**
 * Every log screen the widgets link to, for agent, company or site (docs/api-logs.md). The dashboard data paths
 * that are logs (`/reboot/log`, `/shock/log/`, `/pump/activation/log/`) are the same pages.
 */
export async function logRoutes(app: FastifyInstance) {
  const logs = app.repos.logs;
  const common = (q: {
    limit_to: number;
    before?: string;
    from?: string;
    to?: string;
    q?: string;
    terminal?: string;
  }) => ({ limit: q.limit_to, before: q.before, from: q.from, to: q.to, q: q.q, terminal: q.terminal });

  /** The alert log's query, rows and CSV; `eventTypes` picks the event types it lists from the asked ones. */
  const alertLog = (eventTypes: (asked: number[] | undefined) => number[] | undefined) => ({
    query: AlertLogQuerySchema,
    response: z.array(AlertLogEntrySchema),
    csv: alertCsv,
    load: ({ scope, query }: { scope: ReadScope; query: z.output<typeof AlertLogQuerySchema> }) =>
      app.repos.alerts.list(scope, {
        ...common(query),
        ...lifecycle(query),
        eventTypes: eventTypes(query.event_type),
      }),
  });

  for (const kind of SCOPE_KINDS) {
    const base = `/api/${kind}/:id`;
    const tags = ['logs'];

    logRoute(app, {
      url: api('alert', kind),
      kind,
      tags,
      summary: `Alert log of a${kind === 'agent' ? 'n' : ''} ${kind}`,
      csvName: `${kind}-alert-log`,
      ...alertLog((asked) => asked),
    });

    logRoute(app, {
      url: api('hardware', kind),
      kind,
      tags,
      summary: 'Hardware issue log: alerts of event types 1, 2, 12, 13, 14, 15',
      csvName: `${kind}-hardware-log`,
      ...alertLog(hardwareOnly),
    });

    logRoute(app, {
      url: api('connectivity', kind),
      kind,
      tags,
      summary: 'Connectivity log: every on/off change of a terminal',
      query: ConnectivityLogQuerySchema,
      response: z.array(ConnectivityLogEntrySchema),
      csvName: `${kind}-connectivity-log`,
      csv: [
        ['id', (r) => r.id],
        ['date', (r) => r.date],
        ['status', (r) => r.status],
        ['terminal', (r) => r.number],
        ['site', (r) => r.title],
        ['company', (r) => r.customer_name],
      ],
      load: ({ scope, query }) =>
        logs.connectivity(scope, { ...common(query), status: query.offline ? 'off' : query.status }),
    });

    for (const url of [api('reboot', kind), `${base}/reboot/log/`]) {
      logRoute(app, {
        url,
        kind,
        tags,
        summary: 'Reboot log: each reboot with its state history (queued, sent, done, failed, timed out)',
        query: CommandLogQuerySchema,
        response: z.array(RebootLogEntrySchema),
        csvName: `${kind}-reboot-log`,
        csv: [
          ['id', (r) => r.id],
          ['created_at', (r) => r.created_at],
          ['terminal', (r) => r.terminal_number],
          ['site', (r) => r.site_title],
          ['reboot_type', (r) => r.reboot_type],
          ['status', (r) => r.status],
          ['requested_by', (r) => r.requested_by],
          ['completed_at', (r) => r.completed_at],
          ['detail', (r) => r.detail],
        ],
        load: ({ scope, query }) => logs.reboots(scope, { ...common(query), states: query.state }),
      });
    }

    for (const url of [api('shock', kind), `${base}/shock/log/`]) {
      logRoute(app, {
        url,
        kind,
        tags,
        summary: 'Shock log: readings newest first',
        query: ShockLogQuerySchema,
        response: z.array(ShockLogEntrySchema),
        csvName: `${kind}-shock-log`,
        csv: [
          ['id', (r) => r.id],
          ['created_at', (r) => r.created_at],
          ['reading', (r) => r.reading],
          ['terminal', (r) => r.terminal.terminal_id],
          ['site', (r) => r.site_title],
          ['card_acceptor_name', (r) => r.terminal.card_acceptor_name],
        ],
        load: ({ scope, query }) => logs.shocks(scope, { ...common(query), min: query.min }),
      });
    }

    logRoute(app, {
      url: api('pump-activation', kind),
      kind,
      tags,
      summary: 'Pump activation log: every pump on/off command and its outcome',
      query: CommandLogQuerySchema,
      response: z.array(PumpActivationLogRowSchema),
      csvName: `${kind}-pump-activation-log`,
      csv: [
        ['id', (r) => r.id],
        ['created_at', (r) => r.created_at],
        ['site', (r) => r.site],
        ['pump_no', (r) => r.pump_no],
        ['kind', (r) => r.kind],
        ['state', (r) => r.state],
        ['requested_by', (r) => r.requested_by],
        ['completed_at', (r) => r.completed_at],
        ['detail', (r) => r.detail],
      ],
      load: ({ scope, query }) =>
        logs.pumpActivations(scope, { ...common(query), states: query.state, pumpNo: query.pump }),
    });
  }

  // The hardware log as the company dashboard links it: one site of the company.
  logRoute(app, {
    url: companySiteHardwareLogApiPath(':id', ':siteId'),
    kind: 'site',
    param: 'siteId',
    parent: 'company',
    tags: ['logs'],
    summary: 'Hardware issue log of one site of a company',
    csvName: 'site-hardware-log',
    ...alertLog(hardwareOnly),
  });

  logRoute(app, {
    url: api('pump-status', 'site'),
    kind: 'site',
    tags: ['logs'],
    summary: 'Pump status log: every status entry of the pumps of a site (4000 is normal)',
    query: PumpStatusLogQuerySchema,
    response: z.array(PumpStatusLogRowSchema),
    csvName: 'site-pump-status-log',
    csv: [
      ['id', (r) => r.id],
      ['created_at', (r) => r.created_at],
      ['pump_no', (r) => r.pump_no],
      ['status', (r) => r.status],
      ['reported_status', (r) => r.reported_status],
      ['text', (r) => r.text],
    ],
    load: ({ scope, query }) =>
      logs.pumpStatus(scope.id, { ...common(query), pumpNo: query.pump, abnormal: query.abnormal === true }),
  });

  const base = (r: TelemetryLogRow) => ({
    id: r.id,
    cursor: r.cursor,
    created_at: r.created_at,
    terminal: r.terminal,
    customer: r.customer,
    site_number: r.site_number,
    timezone: r.timezone,
  });
  const telemetryCsv = [
    ['id', (r: { id: number }) => r.id],
    ['created_at', (r: { created_at: string }) => r.created_at],
    ['terminal', (r: { terminal: { terminal_id: string } }) => r.terminal.terminal_id],
    ['site', (r: { customer: string }) => r.customer],
    ['site_number', (r: { site_number: string }) => r.site_number],
  ] as const;
  const telemetryLog = <Row extends z.ZodType>(
    path: 'battery' | 'flashdrive' | 'environment',
    telemetryKind: TelemetryKind,
    schema: Row,
    summary: string,
    map: (r: TelemetryLogRow) => z.input<Row> & { cursor: string },
    extraCsv: CsvColumn<z.output<Row>>[],
  ) =>
    logRoute(app, {
      url: api(path, 'site'),
      kind: 'site',
      tags: ['logs'],
      summary,
      query: TelemetryLogQuerySchema,
      response: z.array(schema),
      csvName: `site-${path}-log`,
      csv: [...(telemetryCsv as unknown as CsvColumn<z.output<Row>>[]), ...extraCsv],
      load: async ({ scope, query }) =>
        (await logs.telemetry(scope.id, telemetryKind, common(query))).map(map),
    });

  telemetryLog(
    'battery',
    'battery',
    BatteryLogEntrySchema,
    'Battery log: battery life readings of the terminals of a site',
    (r) => ({ ...base(r), life: r.battery_life ?? 0 }),
    [['life', (r) => r.life]],
  );
  telemetryLog(
    'flashdrive',
    'flashdrive',
    FlashDriveLogEntrySchema,
    'Flash drive log: space left on the terminals of a site',
    (r) => ({ ...base(r), left: r.flash_left ?? 0 }),
    [['left', (r) => r.left]],
  );
  telemetryLog(
    'environment',
    'environment',
    EnvironmentLogEntrySchema,
    'Environment log: board temperature, cabinet temperature and humidity of the terminals of a site',
    (r) => ({
      ...base(r),
      temperature_main_board: r.temperature_main_board,
      temperature_inside_cabinet: r.temperature_inside_cabinet,
      humidity_inside_cabinet: r.humidity_inside_cabinet,
    }),
    [
      ['temperature_main_board', (r) => r.temperature_main_board],
      ['temperature_inside_cabinet', (r) => r.temperature_inside_cabinet],
      ['humidity_inside_cabinet', (r) => r.humidity_inside_cabinet],
    ],
  );
}
