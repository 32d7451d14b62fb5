/**
 * Whether an error means "the database cannot be reached right now" (down, restarting, refusing connections,
 * connection lost or timed out) rather than a bug: those answer 503 with Retry-After (docs/deploying.md).
 */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
]);
/** SQLSTATE classes 08 (connection exception), 57P01-57P03 (shutdown, cannot connect now), 53300 (too many connections). */
const SQLSTATES = new Set(['57P01', '57P02', '57P03', '53300']);
const MESSAGES = [
  /connection terminated/i,
  /timeout exceeded when trying to connect/i,
  /query read timeout/i,
  /connection timeout/i,
  /not queryable/i,
  /cannot use a pool after calling end/i,
  /terminating connection/i,
  /the database system is (starting up|shutting down|in recovery mode)/i,
  /database is unavailable/i,
];

export class DatabaseUnavailableError extends Error {}

export function isDatabaseUnavailable(error: unknown): boolean {
  const seen = new Set<unknown>();
  let e = error as { code?: unknown; message?: unknown; cause?: unknown; errors?: unknown } | null;
  while (e && typeof e === 'object' && !seen.has(e)) {
    seen.add(e);
    if (e instanceof DatabaseUnavailableError) return true;
    const code = typeof e.code === 'string' ? e.code : '';
    if (NETWORK_CODES.has(code) || SQLSTATES.has(code) || code.startsWith('08')) return true;
    if (typeof e.message === 'string' && MESSAGES.some((m) => m.test(e!.message as string))) return true;
    // AggregateError (e.g. ECONNREFUSED on both ::1 and 127.0.0.1).
    if (Array.isArray(e.errors) && e.errors.some((inner) => isDatabaseUnavailable(inner))) return true;
    e = e.cause as typeof e;
  }
  return false;
}

/** Seconds a client should wait before trying again while the database is down. */
export const DATABASE_RETRY_AFTER_S = 5;
export const DATABASE_UNAVAILABLE = 'The database is unavailable; please try again shortly.';
