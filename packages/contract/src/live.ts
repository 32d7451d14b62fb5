import { z } from 'zod';

/** The stream of changes in the caller's scope: `GET /api/live`, server-sent events (docs/decisions/0015-live-fleet.md). */
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
/**
 * Open streams per client address on one node by default (4 users' worth; the server's
 * LIVE_MAX_STREAMS_PER_ADDRESS); one more is answered 429. IPv6 addresses count per /64.
 */
export const LIVE_MAX_STREAMS_PER_ADDRESS = 80;

/** One change on the wire: what happened and where (row ids, as in the API's paths); ids not known are left out. */
export interface LiveChange {
  /** Position in the change feed: ids only grow. */
  id: number;
  kind: LiveChangeKind;
  agent_id?: number;
  company_id?: number;
  site_id?: number;
  /** Terminal row id, as in /api/terminal/{id}/. */
  terminal?: number;
  /** Pump row id, as in /api/pump/{id}/. */
  pump?: number;
  /** ISO 8601 timestamp in UTC. */
  at: string;
}

/** `event: reset`: the id given is older than the feed keeps (or unknown): refetch everything, then live from `id`. */
export interface LiveReset {
  id: number;
}

/** The ids a change may carry besides its own, in the order they are written. */
const LIVE_CHANGE_IDS = ['agent_id', 'company_id', 'site_id', 'terminal', 'pump'] as const;

/**
 * The JSON text of one change, its keys always in the same order (`id`, `kind`, the ids known, `at`), built by
 * hand: the server writes one per change for every stream it reaches.
 */
export function encodeChange(c: LiveChange): string {
  let s = `{"id":${c.id},"kind":${JSON.stringify(c.kind)}`;
  for (const key of LIVE_CHANGE_IDS) {
    const v = c[key];
    if (v !== undefined) s += `,"${key}":${v}`;
  }
  return `${s},"at":${JSON.stringify(c.at)}}`;
}

/** The `data:` of an `event: change` message from changes already encoded (encodeChange), in order. */
export function encodedChanges(encoded: readonly string[]): string {
  return `[${encoded.join(',')}]`;
}

/** The `data:` of an `event: change` message: its changes, in order (the message's `id:` is the last one's). */
export function encodeChanges(changes: readonly LiveChange[]): string {
  return encodedChanges(changes.map(encodeChange));
}

/** The `data:` of an `event: reset` message. */
export function encodeReset(reset: LiveReset): string {
  return `{"id":${reset.id}}`;
}

/** A message that is not what GET /api/live sends; says what is wrong with it. */
export class LiveDecodeError extends Error {
  override name = 'LiveDecodeError';
}

const isPositiveId = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v > 0;
const KNOWN_KEYS: ReadonlySet<string> = new Set(['id', 'kind', ...LIVE_CHANGE_IDS, 'at']);

/**
 * One change of a message, checked: `id` a positive whole number, `kind` one of LIVE_CHANGE_KINDS, each other id
 * absent, null (read as absent) or a positive whole number, `at` a timestamp, no other key. A plain check rather
 * than a zod schema: it runs on every message the console receives, and keeps zod out of the stream's chunk.
 */
export function decodeChange(raw: unknown): LiveChange {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw))
    throw new LiveDecodeError('a change must be an object');
  const r = raw as Record<string, unknown>;
  for (const key of Object.keys(r)) {
    if (!KNOWN_KEYS.has(key)) throw new LiveDecodeError(`unknown field "${key}" in a change`);
  }
  if (!isPositiveId(r.id)) throw new LiveDecodeError('id must be a positive whole number');
  if (!(LIVE_CHANGE_KINDS as readonly unknown[]).includes(r.kind)) {
    throw new LiveDecodeError(`kind must be one of ${LIVE_CHANGE_KINDS.join(', ')}`);
  }
  if (typeof r.at !== 'string' || Number.isNaN(Date.parse(r.at))) {
    throw new LiveDecodeError('at must be an ISO 8601 timestamp');
  }
  const change: LiveChange = { id: r.id, kind: r.kind as LiveChangeKind, at: r.at };
  for (const key of LIVE_CHANGE_IDS) {
    const v = r[key];
    if (v === undefined || v === null) continue;
    if (!isPositiveId(v)) throw new LiveDecodeError(`${key} must be a positive whole number`);
    change[key] = v;
  }
  return change;
}

/** The changes of an `event: change` message's `data:`, checked (decodeChange); at least one, in id order. */
export function decodeChanges(text: string): LiveChange[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new LiveDecodeError('the data is not JSON');
  }
  if (!Array.isArray(parsed) || parsed.length === 0) {
    throw new LiveDecodeError('the data must be a non-empty array of changes');
  }
  const changes = parsed.map(decodeChange);
  for (let i = 1; i < changes.length; i++) {
    if (changes[i].id <= changes[i - 1].id) throw new LiveDecodeError('the changes must be in id order');
  }
  return changes;
}

/** The `data:` of an `event: reset` message, checked: `{"id": <a whole number>}`. */
export function decodeReset(text: string): LiveReset {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new LiveDecodeError('the data is not JSON');
  }
  const r = parsed as Record<string, unknown> | null;
  if (!r || typeof r !== 'object' || Array.isArray(r) || Object.keys(r).length !== 1) {
    throw new LiveDecodeError('a reset must be {"id": <id>}');
  }
  if (typeof r.id !== 'number' || !Number.isSafeInteger(r.id) || r.id < 0) {
    throw new LiveDecodeError('id must be a whole number');
  }
  return { id: r.id };
}

/** Query of GET /api/live: the `Last-Event-ID` header may come as `last_event_id` instead. */
export const LiveQuerySchema = z.object({
  last_event_id: z
    .string()
    .regex(/^\d{1,15}$/, 'last_event_id must be the id of a change received (a whole number)')
    .optional()
    .describe('Resume after this change id (same as the Last-Event-ID header)'),
});
