import { z } from 'zod';
import { IsoDateTimeSchema } from './common.ts';

/** The stream of changes in the caller's scope (docs/product.md "Live updates"): `GET /api/live`, server-sent events. */
export const LIVE_PATH = '/api/live';

/** What a stream carries: the kinds of change a screen shows. */
export const LIVE_CHANGE_KINDS = [
  'telemetry',
  'alert',
  'connectivity',
  'pump',
  'reboot',
  'transaction',
  'shock',
  'fleet',
] as const;
export type LiveChangeKind = (typeof LIVE_CHANGE_KINDS)[number];

/** Changes closer together than this travel in one message: at most 4 messages a second per stream. */
export const LIVE_BATCH_MS = 250;
/** A comment line (`: ping`) this often keeps proxies from closing an idle stream. */
export const LIVE_HEARTBEAT_MS = 15_000;
/** The reconnection delay the stream announces (`retry:`). */
export const LIVE_RETRY_MS = 3_000;
/** Open streams per user on one node; one more is answered 429. */
export const LIVE_MAX_STREAMS_PER_USER = 20;

const id = z.number().int().positive();

/** One change: what happened and where; ids that are not known are left out. */
export const LiveChangeSchema = z
  .object({
    id: id.describe('Position in the change feed: ids only grow'),
    kind: z.enum(LIVE_CHANGE_KINDS),
    agent_id: id.optional(),
    company_id: id.optional(),
    site_id: id.optional(),
    terminal: id.optional().describe('Terminal row id, as in /api/terminal/{id}/'),
    pump: id.optional().describe('Pump row id, as in /api/pump/{id}/'),
    at: IsoDateTimeSchema,
  })
  .strict();
export type LiveChange = z.infer<typeof LiveChangeSchema>;

/** `event: change`: the data of a message, its changes in order (the message's id is the last one's). */
export const LiveChangesSchema = z.array(LiveChangeSchema).min(1);

/** `event: reset`: the id given is older than the feed keeps (or unknown): refetch everything, then live from `id`. */
export const LiveResetSchema = z.object({ id: z.number().int().min(0) }).strict();
export type LiveReset = z.infer<typeof LiveResetSchema>;

/** Query of GET /api/live: the `Last-Event-ID` header may come as `last_event_id` instead. */
export const LiveQuerySchema = z.object({
  last_event_id: z
    .string()
    .regex(/^\d{1,15}$/, 'last_event_id must be the id of a change received (a whole number)')
    .optional()
    .describe('Resume after this change id (same as the Last-Event-ID header)'),
});
