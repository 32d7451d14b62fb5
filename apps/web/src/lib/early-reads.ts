import { authHeaders } from './api-url.ts';

/**
 * GETs sent before the code that reads their answers has arrived. Opening a dashboard with a stored session,
 * the first reads would otherwise wait for the signed-in chunk and the contract's schemas (zod) to download
 * and run; sent from the entry chunk instead, their answers travel while that code does (one round trip
 * less before the first numbers paint on a phone). The API client takes an answer from here at most once, and
 * then handles it exactly as one it fetched itself: status, 401, ETag, the schema check.
 */

interface EarlyRead {
  token: string;
  sentAt: number;
  response: Promise<Response>;
}

const reads = new Map<string, EarlyRead>();

/** An answer older than this is not handed out: the client asks again. */
export const EARLY_READ_MAX_AGE_MS = 10_000;

/**
 * Sends a GET of each path (as `apiUrl` writes it) with the session's token, unless one is on its way. Returns
 * the answers of all of them (sent now or already on their way).
 */
export function startEarlyReads(
  urls: readonly string[],
  token: string,
  now = Date.now(),
): Promise<Response>[] {
  if (!token || typeof fetch !== 'function') return [];
  const answers: Promise<Response>[] = [];
  for (const url of urls) {
    const known = reads.get(url);
    if (known && known.token === token && now - known.sentAt < EARLY_READ_MAX_AGE_MS) {
      answers.push(known.response);
      continue;
    }
    const response = fetch(url, { headers: { Accept: 'application/json', ...authHeaders(token) } });
    // Never taken (the page went elsewhere): the failure is nobody's to report.
    response.catch(() => undefined);
    reads.set(url, { token, sentAt: now, response });
    answers.push(response);
  }
  return answers;
}

/** The answer of an early GET of `url` with `token`, once; undefined when there is none or it is stale. */
export function takeEarlyRead(url: string, token: string, now = Date.now()): Promise<Response> | undefined {
  const read = reads.get(url);
  if (!read) return undefined;
  reads.delete(url);
  if (read.token !== token || now - read.sentAt >= EARLY_READ_MAX_AGE_MS) return undefined;
  return read.response;
}

/** Forgets every early read (tests; signing out). */
export function clearEarlyReads() {
  reads.clear();
}
