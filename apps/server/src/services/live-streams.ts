import type { ServerResponse } from 'node:http';
import {
  LIVE_BATCH_MS,
  LIVE_HEARTBEAT_MS,
  LIVE_MAX_STREAMS_PER_USER,
  LIVE_RETRY_MS,
} from '@forecourt/contract/live';
import type { FastifyBaseLogger } from 'fastify';
import { type Change, isPublicChange } from '../repositories/change-repository.ts';
import type { Principal } from '../repositories/principal-repository.ts';
import type { TokenCheck } from './accounts.ts';
import type { ChangeFeed } from './change-feed.ts';
import type { TokenClaims } from './tokens.ts';

export interface LiveStreamSettings {
  /** Changes arriving within this window travel in one message (docs/product.md "Live updates": at most 4 messages a second). */
  batchMs: number;
  /** A `: ping` comment this often. */
  heartbeatMs: number;
  /** Open streams per user on this node. */
  maxPerUser: number;
  /** A socket holding more unsent bytes than this is destroyed: the client reconnects and resumes. */
  maxBufferedBytes: number;
  /** The `retry:` the stream announces. */
  retryMs: number;
  /**
   * A Last-Event-ID ahead of this node's feed (the client came from a node that had read further) waits this long
   * for the feed to get there before the answer is a reset.
   */
  catchUpMs: number;
  /** A backlog too long for the socket at once waits this long for the client to read before the stream is dropped. */
  drainMs: number;
}

export const DEFAULT_LIVE_SETTINGS: LiveStreamSettings = {
  batchMs: LIVE_BATCH_MS,
  heartbeatMs: LIVE_HEARTBEAT_MS,
  maxPerUser: LIVE_MAX_STREAMS_PER_USER,
  maxBufferedBytes: 1024 * 1024,
  retryMs: LIVE_RETRY_MS,
  catchUpMs: 2_000,
  drainMs: 30_000,
};

export interface LiveStreamsOptions {
  feed: ChangeFeed;
  /** The check every authenticated request passes (services/accounts.ts): revoked, disabled, password changed. */
  checkToken: (token: string) => Promise<TokenCheck>;
  /** Drops the cached principal of a user, so the next check reads the user again. */
  forgetPrincipal: (userId: number) => void;
  log: FastifyBaseLogger;
  settings?: Partial<LiveStreamSettings>;
}

/** Who opens a stream: the authenticated request's principal, claims and token. */
export interface LiveStreamRequest {
  principal: Principal;
  claims: TokenClaims;
  token: string;
  raw: ServerResponse;
  /** Last-Event-ID: resume after this change id; null for live from now. */
  after: number | null;
}

export type OpenResult = { ok: true; stream: LiveStream } | { ok: false; reason: 'limit' | 'closing' };

/** Why a stream ended (stats and logs). */
export type EndReason = 'client' | 'revoked' | 'expired' | 'slow' | 'closing' | 'failed';

/** A change as it travels: its id and its JSON text, built once for every stream it reaches. */
interface Item {
  id: number;
  json: string;
}

/** What a principal reaches: its agent's changes, its companies', its sites'. */
interface Scope {
  agentId: number | null;
  companyIds: readonly number[];
  siteIds: readonly number[];
}

const scopeOf = (p: Principal): Scope => ({
  agentId: p.agentId,
  companyIds: p.companyIds,
  siteIds: p.siteIds,
});
const scopeKey = (s: Scope) => `${s.agentId ?? ''}|${s.companyIds.join(',')}|${s.siteIds.join(',')}`;

/**
 * Whether a change reaches a scope (docs/product.md "Live updates"): agent user → its agent id; company user → one of its
 * companies; site user → one of its sites. An id the change lacks reaches nobody through it; internal kinds
 * (session, device) reach nobody.
 */
export function reaches(scope: Scope, c: Change): boolean {
  if (!isPublicChange(c.kind)) return false;
  if (scope.agentId !== null && c.agentId === scope.agentId) return true;
  if (c.companyId !== null && scope.companyIds.includes(c.companyId)) return true;
  return c.siteId !== null && scope.siteIds.includes(c.siteId);
}

/** The JSON of a change on the wire: snake_case, unknown ids left out. */
export function changeJson(c: Change): string {
  let s = `{"id":${c.id},"kind":${JSON.stringify(c.kind)}`;
  if (c.agentId !== null) s += `,"agent_id":${c.agentId}`;
  if (c.companyId !== null) s += `,"company_id":${c.companyId}`;
  if (c.siteId !== null) s += `,"site_id":${c.siteId}`;
  if (c.terminalId !== null) s += `,"terminal":${c.terminalId}`;
  if (c.pumpId !== null) s += `,"pump":${c.pumpId}`;
  return `${s},"at":"${c.at.toISOString()}"}`;
}

const MAX_TIMEOUT_MS = 2_147_483_647;

/** Streams of one scope: a change is matched once per scope, then handed to each of its streams. */
interface Group {
  key: string;
  scope: Scope;
  streams: Set<Member>;
  /** The last change matched (a change can reach a scope by its agent, company and site: counted once). */
  lastId: number;
}

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

/** What the streams offer their hub. */
interface Member extends LiveStream {
  readonly token: string;
  offer(items: Item[]): void;
  /** Sends what waits as one message, or answers how long it must still wait (the last one was too recent). */
  flush(now: number, shared: SharedMessages): number;
  ping(): void;
  rescope(principal: Principal): void;
}

/**
 * Messages built during one flush, by the first batch of changes they carry: the streams of one scope wait for the
 * same batches, so their message is built once.
 */
type SharedMessages = Map<Item[], { batches: Item[][]; text: string }>;

function messageOf(batches: Item[][]): string {
  let data = '';
  let last = 0;
  for (const batch of batches) {
    for (const item of batch) {
      data += data ? `,${item.json}` : item.json;
      last = item.id;
    }
  }
  return `id: ${last}\nevent: change\ndata: [${data}]\n\n`;
}

type Headers = Record<string, string | number | readonly string[] | undefined>;

/**
 * The open `GET /api/live` streams of this node, fed by the change feed (services/change-feed.ts): each change is
 * matched against the scopes of the open streams, and each stream sends what reached it at most once per batch
 * window, with the id of its last change. 'session' changes re-check the tokens of that user's streams.
 */
export function createLiveStreams(opts: LiveStreamsOptions) {
  const { feed, log } = opts;
  const settings: LiveStreamSettings = { ...DEFAULT_LIVE_SETTINGS, ...opts.settings };
  const stats = { opened: 0, ended: { client: 0, revoked: 0, expired: 0, slow: 0, closing: 0, failed: 0 } };

  const groups = new Map<string, Group>();
  const byAgent = new Map<number, Set<Group>>();
  const byCompany = new Map<number, Set<Group>>();
  const bySite = new Map<number, Set<Group>>();
  const byUser = new Map<number, Set<Stream>>();
  let closing = false;

  const index = (map: Map<number, Set<Group>>, key: number, group: Group, add: boolean) => {
    const set = map.get(key);
    if (add) {
      if (set) set.add(group);
      else map.set(key, new Set([group]));
    } else if (set) {
      set.delete(group);
      if (!set.size) map.delete(key);
    }
  };
  const indexGroup = (group: Group, add: boolean) => {
    if (group.scope.agentId !== null) index(byAgent, group.scope.agentId, group, add);
    for (const id of group.scope.companyIds) index(byCompany, id, group, add);
    for (const id of group.scope.siteIds) index(bySite, id, group, add);
  };
  const join = (stream: Stream, scope: Scope): Group => {
    const key = scopeKey(scope);
    let group = groups.get(key);
    if (!group) {
      group = { key, scope, streams: new Set(), lastId: 0 };
      groups.set(key, group);
      indexGroup(group, true);
    }
    group.streams.add(stream);
    return group;
  };
  const leave = (stream: Stream, group: Group) => {
    group.streams.delete(stream);
    if (group.streams.size) return;
    groups.delete(group.key);
    indexGroup(group, false);
  };

  /** A quiet stream's first change waits this long for the rest of its feed read (ms). */
  const LEADING_MS = 5;
  /** Passes over the waiting streams are at least this far apart (ms). */
  const MIN_PASS_MS = 20;
  // Batching: a stream that has sent nothing for a window sends at once (after a few ms, so the changes of one feed
  // read travel together); one that sent less than a window ago waits for the rest of it. One timer for the node,
  // one pass over the waiting streams at most every MIN_PASS_MS.
  const dirty = new Set<Stream>();
  let flushTimer: NodeJS.Timeout | undefined;
  let flushDue = Number.POSITIVE_INFINITY;
  let lastPass = 0;
  const flushDirty = () => {
    flushTimer = undefined;
    flushDue = Number.POSITIVE_INFINITY;
    const now = Date.now();
    lastPass = now;
    const shared: SharedMessages = new Map();
    let wait = Number.POSITIVE_INFINITY;
    for (const stream of dirty) {
      const left = stream.flush(now, shared);
      if (left > 0) wait = Math.min(wait, left);
      else dirty.delete(stream);
    }
    if (dirty.size) scheduleFlush(wait);
  };
  const scheduleFlush = (delay: number) => {
    if (closing) return;
    const now = Date.now();
    const due = Math.max(now + delay, lastPass + MIN_PASS_MS);
    if (flushTimer && due >= flushDue) return;
    clearTimeout(flushTimer);
    flushDue = due;
    flushTimer = setTimeout(flushDirty, due - now);
    flushTimer.unref();
  };
  const markDirty = (stream: Stream) => {
    dirty.add(stream);
    scheduleFlush(Math.min(LEADING_MS, settings.batchMs));
  };

  let heartbeat: NodeJS.Timeout | undefined;
  const startHeartbeat = () => {
    clearInterval(heartbeat);
    heartbeat = setInterval(() => {
      for (const streams of byUser.values()) for (const s of streams) s.ping();
    }, settings.heartbeatMs);
    heartbeat.unref();
  };

  class Stream implements Member {
    readonly userId: number;
    private group: Group;
    private mode: 'opening' | 'sending' | 'live' | 'closed' = 'opening';
    /** Items that reached the stream while it was opening (after `upto`): sent after the backlog. */
    private buffered: Item[][] = [];
    /** Items waiting for the next message. */
    private pending: Item[][] = [];
    private backlog: Change[] | 'reset' | null = null;
    private lastSentAt = 0;
    private expiry: NodeJS.Timeout | undefined;
    /** The feed's cursor when the stream joined: the backlog ends there, live changes start after it. */
    private readonly upto: number;
    /** Live changes are sent after this id: `upto`, or a Last-Event-ID the feed reached while the stream opened. */
    private from: number;
    endedBy: EndReason | null = null;

    constructor(
      principal: Principal,
      private readonly claims: TokenClaims,
      readonly token: string,
      private readonly raw: ServerResponse,
      private readonly after: number | null,
    ) {
      this.userId = principal.userId;
      this.group = join(this, scopeOf(principal));
      this.upto = feed.cursor;
      this.from = this.upto;
      const mine = byUser.get(this.userId);
      if (mine) mine.add(this);
      else byUser.set(this.userId, new Set([this]));
      raw.on('close', () => this.end('client'));
      this.armExpiry();
    }

    get closed() {
      return this.mode === 'closed';
    }

    private armExpiry() {
      const left = this.claims.exp * 1000 - Date.now();
      if (left <= 0) {
        queueMicrotask(() => this.end('expired'));
        return;
      }
      this.expiry = setTimeout(() => this.armExpiry(), Math.min(left, MAX_TIMEOUT_MS));
      this.expiry.unref();
    }

    async prepare() {
      const after = this.after;
      if (after === null || after === this.upto) return;
      if (after > this.upto) {
        if (await this.catchUp(after)) this.from = after;
        else this.backlog = 'reset';
        return;
      }
      const backlog = await feed.backlog(after, this.upto);
      // The cursor is the id of a change read, so the backlog ends with it; when it does not (longer than one read
      // returns, or pruned meanwhile), something is missing: the client starts over.
      this.backlog = backlog !== 'reset' && backlog.at(-1)?.id !== this.upto ? 'reset' : backlog;
    }

    /**
     * Waits (at most `catchUpMs`) for this node's feed to reach an id the client already has: another node may have
     * read further. Live changes after the cursor are buffered meanwhile, so nothing after that id is lost.
     */
    private catchUp(id: number): Promise<boolean> {
      if (feed.cursor >= id) return Promise.resolve(true);
      return new Promise<boolean>((resolve) => {
        const finish = (reached: boolean) => {
          clearTimeout(timer);
          unsubscribe();
          resolve(reached);
        };
        const timer = setTimeout(() => finish(feed.cursor >= id), settings.catchUpMs);
        const unsubscribe = feed.subscribe(() => {
          if (feed.cursor >= id) finish(true);
        });
        feed.poke();
      });
    }

    start(headers: Headers) {
      if (this.mode !== 'opening') return;
      const raw = this.raw;
      for (const [name, value] of Object.entries(headers)) {
        if (value !== undefined) raw.setHeader(name, value);
      }
      raw.writeHead(200, {
        'content-type': 'text/event-stream',
        'cache-control': 'no-store',
        'x-accel-buffering': 'no',
        connection: 'keep-alive',
      });
      raw.socket?.setNoDelay(true);
      raw.socket?.setTimeout(0);
      this.mode = 'sending';
      this.write(`retry: ${settings.retryMs}\n\n: live ${this.from}\n\n`);
      const buffered = this.buffered.flat().filter((i) => i.id > this.from);
      this.buffered = [];
      if (this.backlog === 'reset') {
        this.write(`id: ${this.upto}\nevent: reset\ndata: {"id":${this.upto}}\n\n`);
        this.backlog = null;
        this.goLive(buffered);
        return;
      }
      const scope = this.group.scope;
      const items: Item[] = [];
      for (const c of this.backlog ?? []) {
        if (c.id > this.after! && c.id <= this.upto && reaches(scope, c)) {
          items.push({ id: c.id, json: changeJson(c) });
        }
      }
      this.backlog = null;
      items.push(...buffered);
      void this.sendLarge(items).then(
        () => this.goLive([]),
        (err) => {
          log.warn({ err }, 'live stream: the backlog could not be sent');
          this.end('failed');
        },
      );
    }

    /** One message, written in pieces, waiting for the socket to drain between them (a long backlog). */
    private async sendLarge(items: Item[]) {
      if (!items.length) return;
      const last = items[items.length - 1].id;
      const PIECE = 500;
      for (let i = 0; i < items.length; i += PIECE) {
        if (this.mode !== 'sending') return;
        const head = i === 0 ? `id: ${last}\nevent: change\ndata: [` : ',';
        const tail = i + PIECE >= items.length ? ']\n\n' : '';
        const body = items
          .slice(i, i + PIECE)
          .map((x) => x.json)
          .join(',');
        if (!this.raw.write(head + body + tail) && i + PIECE < items.length && !(await this.drained())) {
          // Not read for that long while changes keep arriving for it: dropped like any slow client.
          this.end('slow');
          return;
        }
      }
      this.lastSentAt = Date.now();
    }

    /** Whether the socket drained within `drainMs` (closed counts as drained: the loop then stops). */
    private drained() {
      return new Promise<boolean>((resolve) => {
        const done = (ok: boolean) => {
          clearTimeout(timer);
          this.raw.off('drain', onDrain);
          this.raw.off('close', onDrain);
          resolve(ok);
        };
        const onDrain = () => done(true);
        const timer = setTimeout(() => done(false), settings.drainMs);
        this.raw.on('drain', onDrain);
        this.raw.on('close', onDrain);
      });
    }

    private goLive(first: Item[]) {
      if (this.mode !== 'sending') return;
      this.mode = 'live';
      if (first.length) this.pending.unshift(first);
      if (this.pending.length) markDirty(this);
    }

    /** Changes that reached this stream's scope (in id order). */
    offer(items: Item[]) {
      if (this.mode === 'closed') return;
      if (this.mode === 'opening') {
        this.buffered.push(items);
        return;
      }
      this.pending.push(items);
      if (this.mode === 'live') markDirty(this);
    }

    /** Sends what is waiting as one message; false when it must wait (too soon after the last, or not live). */
    flush(now: number, shared: SharedMessages): number {
      if (this.mode !== 'live') return 0;
      const left = this.lastSentAt + settings.batchMs - now;
      if (left > 0) return left;
      const batches = this.pending;
      this.pending = [];
      if (!batches.length) return 0;
      let message = shared.get(batches[0]);
      if (
        !message ||
        message.batches.length !== batches.length ||
        message.batches.some((batch, i) => batch !== batches[i])
      ) {
        message = { batches, text: messageOf(batches) };
        shared.set(batches[0], message);
      }
      this.lastSentAt = now;
      this.write(message.text);
      return 0;
    }

    ping() {
      if (this.mode === 'live') this.write(': ping\n\n');
    }

    private write(text: string) {
      const raw = this.raw;
      if (raw.destroyed || raw.writableEnded) return;
      raw.write(text);
      if (this.mode === 'live' && raw.writableLength > settings.maxBufferedBytes) {
        log.info(
          { userId: this.userId, unsent: raw.writableLength },
          'live stream dropped: the client reads too slowly',
        );
        this.end('slow');
      }
    }

    /** The user's rights changed: the stream follows the new scope. */
    rescope(principal: Principal) {
      if (this.mode === 'closed') return;
      const scope = scopeOf(principal);
      if (scopeKey(scope) === this.group.key) return;
      leave(this, this.group);
      this.group = join(this, scope);
    }

    end(reason: EndReason) {
      if (this.mode === 'closed') return;
      const wasOpen = this.mode !== 'opening';
      this.mode = 'closed';
      this.endedBy = reason;
      stats.ended[reason]++;
      clearTimeout(this.expiry);
      dirty.delete(this);
      leave(this, this.group);
      const mine = byUser.get(this.userId);
      mine?.delete(this);
      if (mine && !mine.size) byUser.delete(this.userId);
      this.pending = [];
      this.buffered = [];
      if (reason === 'slow') this.raw.destroy();
      else if (wasOpen && !this.raw.writableEnded) this.raw.end();
    }
  }

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
        const results = new Map<string, Promise<TokenCheck>>();
        for (const stream of [...(byUser.get(userId) ?? [])]) {
          let result = results.get(stream.token);
          if (!result) {
            result = opts.checkToken(stream.token);
            results.set(stream.token, result);
          }
          let check: TokenCheck;
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

  const toItem = new WeakMap<Change, Item>();
  const onChanges = (changes: Change[]) => {
    const reached = new Map<Group, Item[]>();
    let sessions: Set<number> | null = null;
    for (const c of changes) {
      if (c.kind === 'session') {
        if (c.userId !== null) {
          sessions ??= new Set();
          sessions.add(c.userId);
        }
        continue;
      }
      if (!isPublicChange(c.kind)) continue;
      const reach = (set: Set<Group> | undefined) => {
        if (!set) return;
        for (const group of set) {
          if (group.lastId >= c.id) continue;
          group.lastId = c.id;
          let item = toItem.get(c);
          if (!item) {
            item = { id: c.id, json: changeJson(c) };
            toItem.set(c, item);
          }
          const list = reached.get(group);
          if (list) list.push(item);
          else reached.set(group, [item]);
        }
      };
      if (c.agentId !== null) reach(byAgent.get(c.agentId));
      if (c.companyId !== null) reach(byCompany.get(c.companyId));
      if (c.siteId !== null) reach(bySite.get(c.siteId));
    }
    for (const [group, items] of reached) for (const stream of group.streams) stream.offer(items);
    if (sessions) for (const userId of sessions) recheck(userId);
  };
  const unsubscribe = feed.subscribe(onChanges);
  startHeartbeat();

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
    /** Changes the settings of this node's streams (tests shorten the heartbeat and the batch window). */
    configure(next: Partial<LiveStreamSettings>) {
      const heartbeatChanged = next.heartbeatMs !== undefined && next.heartbeatMs !== settings.heartbeatMs;
      Object.assign(settings, next);
      if (heartbeatChanged && !closing) startHeartbeat();
    },
    /** A new stream, counted against the user's cap at once (before anything is awaited). */
    open(request: LiveStreamRequest): OpenResult {
      if (closing) return { ok: false, reason: 'closing' };
      if ((byUser.get(request.principal.userId)?.size ?? 0) >= settings.maxPerUser) {
        return { ok: false, reason: 'limit' };
      }
      stats.opened++;
      const stream = new Stream(request.principal, request.claims, request.token, request.raw, request.after);
      return { ok: true, stream };
    },
    /** Ends every stream (the node is closing: its shutdown must not wait for them). */
    close() {
      closing = true;
      unsubscribe();
      clearInterval(heartbeat);
      clearTimeout(flushTimer);
      for (const streams of [...byUser.values()]) for (const s of [...streams]) s.end('closing');
    },
  };
}
export type LiveStreams = ReturnType<typeof createLiveStreams>;

const registry = new WeakMap<ChangeFeed, LiveStreams>();

/** The streams fed by an app's feed (`liveStreamsOf(app.feed)`): their count, stats and settings (tests, bench). */
export function liveStreamsOf(feed: ChangeFeed): LiveStreams | undefined {
  return registry.get(feed);
}

export function registerLiveStreams(feed: ChangeFeed, streams: LiveStreams) {
  registry.set(feed, streams);
}
