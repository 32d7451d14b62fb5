import { decodeChange, decodeChanges, LIVE_PATH, type LiveChange } from '@forecourt/contract/live';
import type { Query, QueryClient, QueryKey } from '@tanstack/react-query';
import { EventSource, type FetchLike } from 'eventsource';
import { type FleetChange, LIVE_QUERY_ROOTS, queriesTouchedBy } from './api/queries-touched-by.ts';
import type { QueryRoot } from './api/query-keys.ts';
import { apiUrl, authHeaders, endUnauthorizedSession } from './api-client.ts';
import { sessionStore } from './auth/session.ts';
import { type LiveState, liveCursor, liveStateStore, readsCursor } from './live-stream-state.ts';

/** A refused stream (429, 5xx, a proxy's 502) is opened again after 3 s, doubling up to 30 s. */
export const RETRY_MIN_MS = 3_000;
export const RETRY_MAX_MS = 30_000;

/** One change as GET /api/live sends it, in the console's terms (the ids that are known). */
function toFleetChange(c: LiveChange): FleetChange {
  const change: FleetChange = { kind: c.kind };
  if (c.agent_id !== undefined) change.agentId = c.agent_id;
  if (c.company_id !== undefined) change.companyId = c.company_id;
  if (c.site_id !== undefined) change.siteId = c.site_id;
  if (c.terminal !== undefined) change.terminalId = c.terminal;
  if (c.pump !== undefined) change.pumpId = c.pump;
  return change;
}

/**
 * One change as GET /api/live sends it, read with the contract's codec, in the console's terms; null when it is
 * not one (a kind this console does not know, a bad id).
 */
export function changeFromWire(raw: unknown): FleetChange | null {
  try {
    return toFleetChange(decodeChange(raw));
  } catch {
    return null;
  }
}

/**
 * The data of one `event: change` message, read with the contract's codec: its changes, or null when it cannot
 * be read (not JSON, not an array, a kind this console does not know) — then everything live is read again, to
 * be safe.
 */
export function changesFromMessage(data: string): FleetChange[] | null {
  try {
    return decodeChanges(data).map(toFleetChange);
  } catch {
    return null;
  }
}

export interface LiveRefresher {
  /** Refetch exactly the queries these changes touch, in one pass. */
  changes(changes: readonly FleetChange[]): void;
  /**
   * Refetch every query of a resource some change touches (`event: reset`, or a stream opened with
   * nothing to resume from). `alsoInFlight`: a query being fetched is read again once that fetch lands.
   */
  everything(alsoInFlight: boolean): void;
  stop(): void;
}

const isLiveRoot = (key: QueryKey) => LIVE_QUERY_ROOTS.has(key[0] as QueryRoot);

/**
 * Invalidates touched queries: the ones on screen refetch at once, the others when they are next shown.
 * A query whose fetch is in flight is not cancelled (a slow read under a steady flow of changes would
 * never finish): it is read once more when that fetch lands, since its answer may predate the change.
 * In a hidden tab nothing is fetched: the queries are marked stale and refetch when the tab shows again.
 */
export function createLiveRefresher(client: QueryClient): LiveRefresher {
  const cache = client.getQueryCache();
  const again = new Set<string>();

  const refresh = (queries: Iterable<Query>, alsoInFlight: boolean) => {
    const now = new Set<Query>();
    for (const query of queries) {
      if (query.state.fetchStatus === 'fetching') {
        if (alsoInFlight) again.add(query.queryHash);
      } else {
        now.add(query);
      }
    }
    if (!now.size) return;
    const hidden = typeof document !== 'undefined' && document.visibilityState === 'hidden';
    void client.invalidateQueries({
      predicate: (query) => now.has(query),
      refetchType: hidden ? 'none' : 'active',
    });
  };

  const unsubscribe = cache.subscribe((event) => {
    if (event.type !== 'updated' && event.type !== 'removed') return;
    const { query } = event;
    if (!again.has(query.queryHash)) return;
    if (event.type === 'removed') {
      again.delete(query.queryHash);
      return;
    }
    if (query.state.fetchStatus === 'fetching') return;
    again.delete(query.queryHash);
    refresh([query], true);
  });

  return {
    changes(changes) {
      const touched = new Set<Query>();
      const seen = new Set<string>();
      for (const change of changes) {
        for (const key of queriesTouchedBy(change)) {
          const id = JSON.stringify(key);
          if (seen.has(id)) continue;
          seen.add(id);
          for (const query of cache.findAll({ queryKey: key })) touched.add(query);
        }
      }
      refresh(touched, true);
    },
    everything(alsoInFlight) {
      refresh(cache.findAll({ predicate: (query) => isLiveRoot(query.queryKey) }), alsoInFlight);
    },
    stop() {
      unsubscribe();
      again.clear();
    },
  };
}

/**
 * Re-evaluates every observed query's `refetchInterval` (lib/api/live.ts polls only while the stream is
 * down). TanStack recomputes the interval on each update of a query; an empty state update is one that
 * changes nothing on screen.
 */
function nudgePolling(client: QueryClient) {
  for (const query of client.getQueryCache().getAll()) {
    if (query.observers.length) query.setState({});
  }
}

/** Publishes the stream's state; polling starts or stops at once on a flip to or from `live`. */
export function setLiveState(client: QueryClient, state: LiveState) {
  if (liveStateStore.get() === state) return;
  liveStateStore.set(state);
  nudgePolling(client);
}

export interface LiveStreamOptions {
  client: QueryClient;
  /** Absolute address of the stream. @default GET /api/live of the API base */
  url?: string;
  /** The token to send, read at each (re)connection. @default the session's */
  token?: () => string;
  /** @default globalThis.fetch (read at each connection) */
  fetch?: typeof globalThis.fetch;
  /** A 401: what the rest of the console does with an expired token. @default endUnauthorizedSession */
  onUnauthorized?: () => void;
  /** Delay before opening a refused stream again, by how many times in a row it was refused. */
  retryDelay?: (failures: number) => number;
}

/** 3 s, 6 s, 12 s ... up to 30 s, each within ±25 % so a restarted server is not met by every tab at once. */
export function defaultRetryDelay(failures: number): number {
  const base = Math.min(RETRY_MAX_MS, RETRY_MIN_MS * 2 ** Math.max(0, failures - 1));
  return Math.round(base * (0.75 + Math.random() * 0.5));
}

function hasHeader(headers: Record<string, string>, name: string) {
  return Object.keys(headers).some((key) => key.toLowerCase() === name);
}

/**
 * Opens the tab's one stream of changes and keeps it open until the returned function is called.
 *
 * - Sends the signed-in token (the same header as every API call), read afresh at each connection.
 * - A change refetches exactly the queries it touches (one pass per message); `event: reset` refetches
 *   everything live. The first connection resumes after the oldest `X-Live-Cursor` of the reads made before
 *   it (lib/live-stream-state.ts), so the changes those reads may predate arrive on it; with nothing to resume
 *   from it re-reads what is loaded instead (a change may have happened between those reads and its start).
 * - Drops: the `eventsource` client reconnects by itself after the server's `retry` and resumes with
 *   `Last-Event-ID`; a refused stream (429, 5xx) is opened again here, resuming from the last id too.
 * - A 401 ends the session like any other call's, and the stream.
 * - `liveStateStore` says whether it is live; polling runs only while it is not.
 */
export function startLiveStream(options: LiveStreamOptions): () => void {
  const { client } = options;
  const url =
    options.url ??
    new URL(apiUrl(LIVE_PATH), typeof location !== 'undefined' ? location.href : 'http://localhost/').href;
  const token = options.token ?? (() => sessionStore.get().token);
  const onUnauthorized = options.onUnauthorized ?? endUnauthorizedSession;
  const retryDelay = options.retryDelay ?? defaultRetryDelay;
  const refresher = createLiveRefresher(client);

  let source: EventSource | null = null;
  let lastEventId: string | null = null;
  let failures = 0;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;
  let resumeTaken = false;

  const setState = (state: LiveState) => setLiveState(client, state);

  const streamFetch: FetchLike = (input, init) => {
    const headers: Record<string, string> = { ...init.headers, ...authHeaders(token()) };
    // A stream opened again after a refusal is a new EventSource: it resumes from the last id seen.
    if (lastEventId !== null && !hasHeader(headers, 'last-event-id')) headers['Last-Event-ID'] = lastEventId;
    // Low priority: a stream that stays open is background traffic, not part of loading the page. The reads
    // go first, and tools that wait for a page's important requests to end (Lighthouse) do not wait for
    // this one, which never ends (they waited out their 45 s limit and measured all that came after).
    return (options.fetch ?? globalThis.fetch)(input, { ...init, headers, priority: 'low' });
  };

  const stop = () => {
    if (stopped) return;
    stopped = true;
    clearTimeout(retryTimer);
    source?.close();
    source = null;
    liveCursor.set(null);
    readsCursor.reset();
    refresher.stop();
    setState('off');
  };

  const connect = () => {
    if (stopped) return;
    if (lastEventId === null && !resumeTaken) {
      // The first connection resumes after the oldest of the reads made so far (their X-Live-Cursor): the
      // changes they may predate come on the stream, instead of everything being read again once it opens.
      resumeTaken = true;
      const resume = readsCursor.take(() => {
        if (!stopped) refresher.everything(true);
      });
      if (resume !== null) {
        lastEventId = String(resume);
        liveCursor.set(lastEventId);
      }
    }
    const es = new EventSource(url, { fetch: streamFetch });
    source = es;
    const track = (event: MessageEvent) => {
      if (!event.lastEventId) return;
      lastEventId = event.lastEventId;
      liveCursor.set(lastEventId);
    };
    es.addEventListener('open', () => {
      if (stopped || source !== es) return;
      failures = 0;
      if (lastEventId === null) refresher.everything(false);
      setState('live');
    });
    es.addEventListener('change', (event: MessageEvent) => {
      if (stopped || source !== es) return;
      track(event);
      const changes = changesFromMessage(String(event.data));
      if (changes) refresher.changes(changes);
      else refresher.everything(true);
    });
    es.addEventListener('reset', (event: MessageEvent) => {
      if (stopped || source !== es) return;
      track(event);
      refresher.everything(true);
    });
    es.addEventListener('error', (event) => {
      if (stopped || source !== es) return;
      if (es.readyState === es.CLOSED) {
        // Refused (a status other than 200): the client gives up, so the retry is ours.
        if (event.code === 401) {
          stop();
          onUnauthorized();
          return;
        }
        failures += 1;
        source = null;
        retryTimer = setTimeout(connect, retryDelay(failures));
      }
      // Otherwise the connection dropped and the client is already reconnecting.
      setState('reconnecting');
    });
  };

  setState(liveStateStore.get() === 'off' ? 'connecting' : 'reconnecting');
  connect();
  return stop;
}
