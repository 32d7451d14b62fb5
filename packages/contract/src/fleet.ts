import { z } from 'zod';
import { BooleanQuerySchema, IsoDateTimeSchema, LimitSchema, LogQuerySchema } from './common.ts';
import { SEVERITIES } from './severity.ts';

export const CompanySchema = z.object({
  id: z.number().int(),
  name: z.string(),
  agent_id: z.number().int().optional(),
});
export type Company = z.infer<typeof CompanySchema>;

export const CompanyDetailSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  agent_id: z.number().int(),
  logo: z.string().nullable().optional(),
  sites_count: z.number().int().optional(),
});
export type CompanyDetail = z.infer<typeof CompanyDetailSchema>;

export const SiteDetailSchema = z.object({
  id: z.number().int(),
  title: z.string(),
  number: z.string(),
  company_id: z.number().int(),
  company_name: z.string().optional(),
  lat: z.number().nullable(),
  lng: z.number().nullable(),
  city: z.string().nullable().optional(),
  timezone: z.string().describe('IANA time zone of the site'),
});
export type SiteDetail = z.infer<typeof SiteDetailSchema>;

/** Company or agent sites: status 0 offline, anything else online. */
export const SiteStatusSchema = z.object({
  id: z.number().int(),
  title: z.string(),
  number: z.string(),
  status: z.number().int().describe('0 offline (no terminal online), else the number of terminals online'),
  company_id: z.number().int().optional(),
});
export type SiteStatus = z.infer<typeof SiteStatusSchema>;

export const TerminalSchema = z.object({
  id: z.number().int(),
  terminal_id: z.string().describe('The displayed terminal number'),
  site_id: z.number().int().optional(),
  connectivity: z.enum(['on', 'off']).optional(),
});
export type Terminal = z.infer<typeof TerminalSchema>;

/** A site's terminal list (`GET /api/site/{id}/terminals/`): the terminal with its position (the site's when it has none). */
export const SiteTerminalSchema = TerminalSchema.extend({
  lat: z.number().nullable().describe('Latitude; null when neither the terminal nor its site is placed'),
  lng: z.number().nullable().describe('Longitude; null when neither the terminal nor its site is placed'),
  tags: z.array(z.string()).describe('Its tags (docs/targets.md)'),
  software_version: z
    .string()
    .nullable()
    .describe('What the device last reported running; null until it reports'),
});
export type SiteTerminal = z.infer<typeof SiteTerminalSchema>;

export const SeveritySchema = z.enum(SEVERITIES);
export const ALERT_STATES = ['active', 'cleared'] as const;
export const AlertStateSchema = z.enum(ALERT_STATES);
export type AlertState = z.infer<typeof AlertStateSchema>;

export const AlertSchema = z.object({
  id: z.number().int(),
  text: z.string(),
  started_at: IsoDateTimeSchema,
  event_type: z.number().int(),
  created_at: IsoDateTimeSchema,
  number: z.string().describe('Terminal number'),
  issue: z.string().describe('Event name (text before the first colon)'),
  customer_name: z.string(),
  site_name: z.string(),
  site_id: z.number().int().optional(),
  company_id: z.number().int().optional(),
  terminal_id: z.number().int().optional(),
  cursor: z.string().optional(),
  severity: SeveritySchema.describe("From the event type's entry in the catalogue (docs/event-types.md)"),
  state: AlertStateSchema.describe(
    'active until the condition clears (the terminal reports again, or the device clears it)',
  ),
  cleared_at: IsoDateTimeSchema.nullable(),
  acknowledged_at: IsoDateTimeSchema.nullable().describe('When it was first acknowledged'),
  acknowledged_by: z.string().nullable().describe('Username of whoever acknowledged it first'),
  note: z.string().nullable().describe("The acknowledger's note"),
  rule_id: z.number().int().nullable().describe('The alert rule that raised it (event type 100), else null'),
  silenced: z
    .boolean()
    .describe('Raised while a maintenance window covered its terminal: no mail, not counted by the bell'),
  maintenance_id: z.number().int().nullable().describe('The maintenance window that silenced it'),
});
export type Alert = z.infer<typeof AlertSchema>;

/** `POST /api/alerts/{id}/ack/`: an optional note; acknowledging again keeps the first who, when and note. */
export const AckAlertBodySchema = z
  .object({
    note: z
      .string({ error: 'note must be a string' })
      .trim()
      .max(500, 'note must be at most 500 characters')
      .optional()
      .describe('Why, or what is being done'),
  })
  .strict();
export type AckAlertBody = z.infer<typeof AckAlertBodySchema>;

/** `GET /api/alerts/{agent|company}/{id}/sites/`: one row per site with active alerts, worst first. */
export const AlertSiteSchema = z.object({
  site_id: z.number().int(),
  title: z.string(),
  number: z.string(),
  active: z.number().int().describe('Active alerts'),
  unacknowledged: z.number().int().describe('Active alerts nobody has acknowledged'),
  worst_severity: SeveritySchema,
  latest_at: IsoDateTimeSchema.describe('Start of the newest active alert'),
});
export type AlertSite = z.infer<typeof AlertSiteSchema>;

/** `GET /api/alerts/{agent|company|site}/{id}/count/`: how many alerts match the filters (the bell). */
export const AlertCountSchema = z.object({ count: z.number().int() });

const EVENT_TYPE_MESSAGE = 'event_type must be a whole number from 1 to 999';
const eventTypeItem = z.coerce
  .number({ error: EVENT_TYPE_MESSAGE })
  .int(EVENT_TYPE_MESSAGE)
  .min(1, EVENT_TYPE_MESSAGE)
  .max(999, EVENT_TYPE_MESSAGE);

/** `event_type` once or repeated (`?event_type=1&event_type=2`); always a list after parsing. */
export const EventTypeListSchema = z
  .union([eventTypeItem, z.array(eventTypeItem).max(50, 'event_type: at most 50 values')])
  .transform((v) => (Array.isArray(v) ? v : [v]));

/** `state` and `acknowledged`, on every alert list and log (DESIGN "Alert lifecycle"). */
export const AlertStateFilterSchema = z
  .enum(ALERT_STATES, { error: "state must be 'active' or 'cleared'" })
  .optional()
  .describe('active or cleared');
export const AcknowledgedFilterSchema = z
  .union([z.boolean(), z.enum(['true', 'false', '1', '0'])], { error: 'acknowledged must be true or false' })
  .transform((v) => v === true || v === 'true' || v === '1')
  .optional()
  .describe('true: only acknowledged; false: only unacknowledged');

export const SilencedFilterSchema = z
  .union([z.boolean(), z.enum(['true', 'false', '1', '0'])], { error: 'silenced must be true or false' })
  .transform((v) => v === true || v === 'true' || v === '1')
  .optional()
  .describe('true: only alerts raised in a maintenance window; false: only the others');

export const RuleIdFilterSchema = z.coerce
  .number({ error: 'rule_id must be a numeric id' })
  .int('rule_id must be a numeric id')
  .min(1, 'rule_id must be a numeric id')
  .max(2_147_483_647, 'rule_id must be a numeric id')
  .optional()
  .describe('Only the alerts raised by this alert rule');

export const ListAlertsQuerySchema = z.object({
  limit_to: LimitSchema,
  event_type: EventTypeListSchema.optional().describe('Repeatable; hardware issues are 1, 2, 12, 13, 14, 15'),
  before: LogQuerySchema.shape.before,
  q: z.string().max(200).optional().describe('Case-insensitive substring search in text, terminal and site'),
  state: AlertStateFilterSchema,
  acknowledged: AcknowledgedFilterSchema,
  silenced: SilencedFilterSchema,
  rule_id: RuleIdFilterSchema,
  sort: z
    .enum(['newest', 'severity'], { error: "sort must be 'newest' or 'severity'" })
    .optional()
    .describe('newest (default) or severity: worst first, newest first within a severity'),
});
export type ListAlertsQuery = z.infer<typeof ListAlertsQuerySchema>;

export const ConnectivitySchema = z.object({
  site_id: z.number().int(),
  title: z.string(),
  number: z.string().describe('Terminal number'),
  status: z.enum(['on', 'off']),
  date: IsoDateTimeSchema.describe('When the terminal last changed state'),
  terminal_id: z.number().int().optional(),
});
export type Connectivity = z.infer<typeof ConnectivitySchema>;

export const ListConnectivityQuerySchema = z.object({
  limit_to: LimitSchema,
  offline: BooleanQuerySchema.optional(),
});

export const MapTerminalSchema = z.object({
  terminal_id: z.string(),
  lat: z.number(),
  lng: z.number(),
  marker_color: z.enum(['green', 'red', 'yellow']),
});
export const MapSiteSchema = z.object({
  id: z.number().int(),
  site_title: z.string(),
  site_no: z.string(),
  terminals: z.array(MapTerminalSchema),
});
export type MapSite = z.infer<typeof MapSiteSchema>;

export const SiteMapTerminalSchema = z.object({
  id: z.number().int(),
  terminal_id: z.string(),
  lat: z.number(),
  lng: z.number(),
  connectivity: z.string(),
});
export type SiteMapTerminal = z.infer<typeof SiteMapTerminalSchema>;

export const TimeZoneSchema = z.object({
  title: z.string(),
  area: z.string(),
  tz_title: z.string(),
  tz: z.number().describe('Current offset from UTC in hours'),
  iana: z.string().describe('IANA zone name; lets the clock follow daylight saving'),
});
export type TimeZone = z.infer<typeof TimeZoneSchema>;
