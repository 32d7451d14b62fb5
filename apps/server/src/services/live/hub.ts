import type { FastifyBaseLogger } from 'fastify';
import type { Change } from '../../repositories/change-repository.ts';
import type { Principal } from '../../repositories/principal-repository.ts';
import type { ChangeFeed } from '../change-feed.ts';
import { addressKey } from './address.ts';
import { FlushScheduler } from './flush-scheduler.ts';
import { type Item, ScopeIndex } from './scope-index.ts';
import { DEFAULT_LIVE_SETTINGS, type LiveStreamSettings } from './settings.ts';
import {
  changeJson,
  type EndReason,
  type Headers,
  SseStream,
  type StreamContext,
  type StreamRequest,
  startHeartbeat,
} from './sse-stream.ts';

export type { LiveStreamSettings } from './settings.ts';

/** Whether a stream's token (a session token or an API key) still stands, and the rights it now carries. */
export type StreamCheck = { ok: true; principal: Principal } | { ok: false };
export type { EndReason } from './sse-stream.ts';

export interface LiveStreamsOptions {
  feed: ChangeFeed;
  /**
   * The check every authenticated request passes (services/accounts.ts, services/api-keys.ts): revoked, disabled,
   * password changed, key deleted.
   */
  checkToken: (token: string) => Promise<StreamCheck>;
  /** Drops the cached principal of a user, so the next check reads the user again. */
  forgetPrincipal: (userId: number) => void;
  log: FastifyBaseLogger;
  settings?: Partial<LiveStreamSettings>;
}

/** Who opens a stream: the authenticated request's principal, claims and token, its socket and resume point. */
export type LiveStreamRequest = StreamRequest;

/** An open stream, as the route sees it. */
export interface LiveStream {
  readonly userId: number;
  readonly closed: boolean;
  /** Why it ended, once it has. */
  readonly endedBy: EndReason | null;
  /** Reads the backlog after Last-Event-ID (before the answer starts: a database failure is still a 503). */
  prepare(): Promise<void>;
  /** Sends the headers, the opening lines and the backlog (or the reset), then goes live. */
  start(headers: Headers): void;
  end(reason: EndReason): void;
}

/** A refused stream: the node is closing, or the user's or the address's cap is reached (`limit` says which). */
export type OpenResult =
  | { ok: true; stream: LiveStream }
  | { ok: false; reason: 'closing' }
  | { ok: false; reason: 'limit'; per: 'user' | 'address'; max: number };

/**
 * The open `GET /api/live` streams of this node, fed by the change feed (services/change-feed.ts): the scope index
 * says which streams each change reaches, each stream sends what reached it through the flush scheduler (at most one
 * message per batch window, with the id of its last change), and 'session' changes re-check the tokens of that
 * user's streams (a revoked one ends, a changed scope is followed).
 */
export function createLiveStreams(opts: LiveStreamsOptions) {
  const { feed, log } = opts;
  const settings: LiveStreamSettings = { ...DEFAULT_LIVE_SETTINGS, ...opts.settings };
  const stats = { opened: 0, ended: { client: 0, revoked: 0, expired: 0, slow: 0, closing: 0, failed: 0 } };
  const byUser = new Map<number, Set<SseStream>>();
  const byAddress = new Map<string, Set<SseStream>>();
  let closing = false;

  const ctx: StreamContext = {
    settings,
    log,
    feed,
    index: new ScopeIndex<SseStream>(),
    scheduler: new FlushScheduler<SseStream>(() => settings.batchMs),
    encode: (c: Change): Item => ({ id: c.id, json: changeJson(c) }),
    ended(stream, reason) {
      stats.ended[reason]++;
      remove(byUser, stream.userId, stream);
      remove(byAddress, stream.addressKey, stream);
    },
  };

  function* allStreams() {
    for (const streams of byUser.values()) yield* streams;
  }
  let stopHeartbeat = startHeartbeat(allStreams, settings.heartbeatMs);

  /** Users whose streams are being re-checked, and those to check once more when that is done. */
  const checking = new Set<number>();
  const checkAgain = new Set<number>();
  const recheck = (userId: number) => {
    if (!byUser.has(userId)) return;
    if (checking.has(userId)) {
      checkAgain.add(userId);
      return;
    }
    checking.add(userId);
    void (async () => {
      // After every subscriber of this delivery has run: plugins/node-sync.ts reloads the revoked tokens then.
      await null;
      do {
        checkAgain.delete(userId);
        opts.forgetPrincipal(userId);
        const results = new Map<string, Promise<StreamCheck>>();
        for (const stream of [...(byUser.get(userId) ?? [])]) {
          let result = results.get(stream.token);
          if (!result) {
            result = opts.checkToken(stream.token);
            results.set(stream.token, result);
          }
          let check: StreamCheck;
          try {
            check = await result;
          } catch (err) {
            // The rights cannot be confirmed (database down): the stream ends; the client reconnects and is asked again.
            log.warn({ err, userId }, 'live stream: the token could not be checked again');
            stream.end('failed');
            continue;
          }
          if (check.ok) stream.rescope(check.principal);
          else stream.end('revoked');
        }
      } while (checkAgain.has(userId));
    })().finally(() => checking.delete(userId));
  };

  const onChanges = (changes: Change[]) => {
    for (const [group, items] of ctx.index.match(changes, ctx.encode)) {
      for (const stream of group.members) stream.offer(items);
    }
    let sessions: Set<number> | null = null;
    for (const c of changes) {
      if (c.kind === 'session' && c.userId !== null) {
        sessions ??= new Set();
        sessions.add(c.userId);
      }
    }
    if (sessions) for (const userId of sessions) recheck(userId);
  };
  const unsubscribe = feed.subscribe(onChanges);

  return {
    settings: settings as Readonly<LiveStreamSettings>,
    stats,
    /** Open streams on this node (opening ones included). */
    get size() {
      let n = 0;
      for (const streams of byUser.values()) n += streams.size;
      return n;
    },
    /** Open streams of one user on this node. */
    countOf(userId: number) {
      return byUser.get(userId)?.size ?? 0;
    },
    /** Open streams from one client address on this node (IPv6: its /64). */
    countFrom(address: string) {
      return byAddress.get(addressKey(address))?.size ?? 0;
    },
    /** Changes the settings of this node's streams (tests shorten the heartbeat and the batch window). */
    configure(next: Partial<LiveStreamSettings>) {
      const heartbeatChanged = next.heartbeatMs !== undefined && next.heartbeatMs !== settings.heartbeatMs;
      Object.assign(settings, next);
      if (heartbeatChanged && !closing) {
        stopHeartbeat();
        stopHeartbeat = startHeartbeat(allStreams, settings.heartbeatMs);
      }
    },
    /**
     * A new stream, counted against the user's cap and its address's at once (before anything is awaited): five
     * fresh accounts from one address hold no more streams than the address may.
     */
    open(request: LiveStreamRequest): OpenResult {
      if (closing) return { ok: false, reason: 'closing' };
      const userId = request.principal.userId;
      if ((byUser.get(userId)?.size ?? 0) >= settings.maxPerUser) {
        return { ok: false, reason: 'limit', per: 'user', max: settings.maxPerUser };
      }
      if ((byAddress.get(addressKey(request.address))?.size ?? 0) >= settings.maxPerAddress) {
        return { ok: false, reason: 'limit', per: 'address', max: settings.maxPerAddress };
      }
      stats.opened++;
      const stream = new SseStream(ctx, request);
      add(byUser, userId, stream);
      add(byAddress, stream.addressKey, stream);
      return { ok: true, stream };
    },
    /** Ends every stream (the node is closing: its shutdown must not wait for them). */
    close() {
      closing = true;
      unsubscribe();
      stopHeartbeat();
      ctx.scheduler.close();
      for (const s of [...allStreams()]) s.end('closing');
    },
  };
}
export type LiveStreams = ReturnType<typeof createLiveStreams>;

function add<K, V>(map: Map<K, Set<V>>, key: K, value: V) {
  const set = map.get(key);
  if (set) set.add(value);
  else map.set(key, new Set([value]));
}

function remove<K, V>(map: Map<K, Set<V>>, key: K, value: V) {
  const set = map.get(key);
  set?.delete(value);
  if (set && !set.size) map.delete(key);
}

const registry = new WeakMap<ChangeFeed, LiveStreams>();

/** The streams fed by an app's feed (`liveStreamsOf(app.feed)`): their count, stats and settings (tests, bench). */
export function liveStreamsOf(feed: ChangeFeed): LiveStreams | undefined {
  return registry.get(feed);
}

export function registerLiveStreams(feed: ChangeFeed, streams: LiveStreams) {
  registry.set(feed, streams);
}
