import type { ServerResponse } from 'node:http';
import {
  encodeChange,
  encodedChanges,
  encodeReset,
  type LiveChange,
  type LiveChangeKind,
} from '@forecourt/contract/live';
import type { FastifyBaseLogger } from 'fastify';
import type { Change } from '../../repositories/change-repository.ts';
import type { Principal } from '../../repositories/principal-repository.ts';
import type { ChangeFeed } from '../change-feed.ts';
import type { TokenClaims } from '../tokens.ts';
import { addressKey } from './address.ts';
import { type Flushable, type FlushScheduler, Outbox, type SharedMessages } from './flush-scheduler.ts';
import {
  type Item,
  reaches,
  type Scope,
  type ScopeGroup,
  type ScopeIndex,
  scopeKey,
  scopeOf,
} from './scope-index.ts';
import type { LiveStreamSettings } from './settings.ts';

// The framing of `text/event-stream` as GET /api/live writes it: blocks ending with an empty line.

/** The opening lines: the reconnection delay and the comment naming the point the stream is live from. */
export const openingFrame = (retryMs: number, from: number) => `retry: ${retryMs}\n\n: live ${from}\n\n`;

/** The heartbeat comment. */
export const PING_FRAME = ': ping\n\n';

/** `event: reset`: the id asked for is gone (or unknown); everything is read again, changes follow from `id`. */
export const resetFrame = (id: number) => `id: ${id}\nevent: reset\ndata: ${encodeReset({ id })}\n\n`;

/** One `event: change` message carrying these batches of changes, in order, with the id of the last one. */
export function changeFrame(batches: readonly Item[][]): string {
  const encoded: string[] = [];
  let last = 0;
  for (const batch of batches) {
    for (const item of batch) {
      encoded.push(item.json);
      last = item.id;
    }
  }
  return `id: ${last}\nevent: change\ndata: ${encodedChanges(encoded)}\n\n`;
}

/**
 * A message too long to write at once (a backlog): its head up to the data's opening bracket, the encoded changes
 * joined by commas in pieces, then its tail; the same text as changeFrame.
 */
const changeHead = (lastId: number) => `id: ${lastId}\nevent: change\ndata: [`;
const CHANGE_TAIL = ']\n\n';

/** The wire form of a change (the contract's codec): snake_case, unknown ids left out. */
export function wireChange(c: Change): LiveChange {
  const w: LiveChange = { id: c.id, kind: c.kind as LiveChangeKind, at: c.at.toISOString() };
  if (c.agentId !== null) w.agent_id = c.agentId;
  if (c.companyId !== null) w.company_id = c.companyId;
  if (c.siteId !== null) w.site_id = c.siteId;
  if (c.terminalId !== null) w.terminal = c.terminalId;
  if (c.pumpId !== null) w.pump = c.pumpId;
  return w;
}

/** The JSON text of a change on the wire. */
export const changeJson = (c: Change): string => encodeChange(wireChange(c));

/** Why a stream ended (stats and logs). */
export type EndReason = 'client' | 'revoked' | 'expired' | 'slow' | 'closing' | 'failed';

export type Headers = Record<string, string | number | readonly string[] | undefined>;

const MAX_TIMEOUT_MS = 2_147_483_647;
/** A long backlog is written this many changes at a time, waiting for the socket to drain between pieces. */
const BACKLOG_PIECE = 500;

/** What a stream needs from its hub. */
export interface StreamContext {
  /** The node's live settings (read at each use: tests change them). */
  readonly settings: LiveStreamSettings;
  readonly log: FastifyBaseLogger;
  /** The change feed: its cursor, the backlog after a Last-Event-ID, and wake-ups while a stream catches up. */
  readonly feed: Pick<ChangeFeed, 'cursor' | 'backlog' | 'subscribe' | 'poke'>;
  readonly index: ScopeIndex<SseStream>;
  readonly scheduler: FlushScheduler<SseStream>;
  /** A change's wire text (with its id). */
  encode(c: Change): Item;
  /** The stream ended: the hub forgets it. */
  ended(stream: SseStream, reason: EndReason): void;
}

/** Who opens a stream: the authenticated request's principal, claims and token, its socket and resume point. */
export interface StreamRequest {
  principal: Principal;
  /** When the stream's credential ends (`exp`, seconds since the epoch; Infinity for a key that never expires). */
  claims: Pick<TokenClaims, 'exp'>;
  token: string;
  raw: ServerResponse;
  /** Last-Event-ID: resume after this change id; null for live from now. */
  after: number | null;
  /** The client's address (the request's, TRUST_PROXY honoured): streams are capped per address too. */
  address: string;
}

/**
 * One open `GET /api/live` stream: opening (the backlog after Last-Event-ID is read, changes that arrive are held),
 * sending (the opening lines and the backlog are written), live (changes go out through the flush scheduler, a
 * heartbeat comment keeps proxies from closing it), closed. A client that does not read is dropped once its unsent
 * bytes pass `maxBufferedBytes` (it reconnects and resumes); the stream ends when its token expires or its hub finds
 * the session revoked.
 */
export class SseStream implements Flushable {
  readonly userId: number;
  readonly token: string;
  /** The key its client address counts under (address.ts). */
  readonly addressKey: string;
  private readonly claims: Pick<TokenClaims, 'exp'>;
  private readonly raw: ServerResponse;
  private readonly after: number | null;
  private group: ScopeGroup<SseStream>;
  private mode: 'opening' | 'sending' | 'live' | 'closed' = 'opening';
  /** Items that reached the stream while it was opening (after `upto`): sent after the backlog. */
  private buffered: Item[][] = [];
  private readonly outbox = new Outbox();
  private backlog: Change[] | 'reset' | null = null;
  private expiry: NodeJS.Timeout | undefined;
  /** The feed's cursor when the stream joined: the backlog ends there, live changes start after it. */
  private readonly upto: number;
  /** Live changes are sent after this id: `upto`, or a Last-Event-ID the feed reached while the stream opened. */
  private from: number;
  /** Why it ended, once it has. */
  endedBy: EndReason | null = null;

  constructor(
    private readonly ctx: StreamContext,
    request: StreamRequest,
  ) {
    this.userId = request.principal.userId;
    this.token = request.token;
    this.addressKey = addressKey(request.address);
    this.claims = request.claims;
    this.raw = request.raw;
    this.after = request.after;
    this.group = ctx.index.join(this, scopeOf(request.principal));
    this.upto = ctx.feed.cursor;
    this.from = this.upto;
    this.raw.on('close', () => this.end('client'));
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

  /** Reads the backlog after Last-Event-ID (before the answer starts: a database failure is still a 503). */
  async prepare() {
    const after = this.after;
    if (after === null || after === this.upto) return;
    if (after > this.upto) {
      if (await this.catchUp(after)) this.from = after;
      else this.backlog = 'reset';
      return;
    }
    const backlog = await this.ctx.feed.backlog(after, this.upto);
    // The cursor is the id of a change read, so the backlog ends with it; when it does not (longer than one read
    // returns, or pruned meanwhile), something is missing: the client starts over.
    this.backlog = backlog !== 'reset' && backlog.at(-1)?.id !== this.upto ? 'reset' : backlog;
  }

  /**
   * Waits (at most `catchUpMs`) for this node's feed to reach an id the client already has: another node may have
   * read further. Live changes after the cursor are buffered meanwhile, so nothing after that id is lost.
   */
  private catchUp(id: number): Promise<boolean> {
    const feed = this.ctx.feed;
    if (feed.cursor >= id) return Promise.resolve(true);
    return new Promise<boolean>((resolve) => {
      const finish = (reached: boolean) => {
        clearTimeout(timer);
        unsubscribe();
        resolve(reached);
      };
      const timer = setTimeout(() => finish(feed.cursor >= id), this.ctx.settings.catchUpMs);
      const unsubscribe = feed.subscribe(() => {
        if (feed.cursor >= id) finish(true);
      });
      feed.poke();
    });
  }

  /** Sends the headers, the opening lines and the backlog (or the reset), then goes live. */
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
    this.write(openingFrame(this.ctx.settings.retryMs, this.from));
    const buffered = this.buffered.flat().filter((i) => i.id > this.from);
    this.buffered = [];
    if (this.backlog === 'reset') {
      this.write(resetFrame(this.upto));
      this.backlog = null;
      this.goLive(buffered);
      return;
    }
    const scope: Scope = this.group.scope;
    const items: Item[] = [];
    for (const c of this.backlog ?? []) {
      if (c.id > this.after! && c.id <= this.upto && reaches(scope, c)) items.push(this.ctx.encode(c));
    }
    this.backlog = null;
    items.push(...buffered);
    void this.sendLarge(items).then(
      () => this.goLive([]),
      (err) => {
        this.ctx.log.warn({ err }, 'live stream: the backlog could not be sent');
        this.end('failed');
      },
    );
  }

  /** One message, written in pieces, waiting for the socket to drain between them (a long backlog). */
  private async sendLarge(items: Item[]) {
    if (!items.length) return;
    const last = items[items.length - 1].id;
    for (let i = 0; i < items.length; i += BACKLOG_PIECE) {
      if (this.mode !== 'sending') return;
      const head = i === 0 ? changeHead(last) : ',';
      const tail = i + BACKLOG_PIECE >= items.length ? CHANGE_TAIL : '';
      const body = items
        .slice(i, i + BACKLOG_PIECE)
        .map((x) => x.json)
        .join(',');
      if (
        !this.raw.write(head + body + tail) &&
        i + BACKLOG_PIECE < items.length &&
        !(await this.drained())
      ) {
        // Not read for that long while changes keep arriving for it: dropped like any slow client.
        this.end('slow');
        return;
      }
    }
    this.outbox.sent(Date.now());
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
      const timer = setTimeout(() => done(false), this.ctx.settings.drainMs);
      this.raw.on('drain', onDrain);
      this.raw.on('close', onDrain);
    });
  }

  private goLive(first: Item[]) {
    if (this.mode !== 'sending') return;
    this.mode = 'live';
    if (first.length) this.outbox.unshift(first);
    if (!this.outbox.isEmpty) this.ctx.scheduler.mark(this);
  }

  /** Changes that reached this stream's scope (in id order). */
  offer(items: Item[]) {
    if (this.mode === 'closed') return;
    if (this.mode === 'opening') {
      this.buffered.push(items);
      return;
    }
    this.outbox.push(items);
    if (this.mode === 'live') this.ctx.scheduler.mark(this);
  }

  /** Sends what is waiting as one message, or answers how long it must still wait (too soon after the last). */
  flush(now: number, shared: SharedMessages): number {
    if (this.mode !== 'live') return 0;
    const message = this.outbox.take(now, this.ctx.settings.batchMs, shared, changeFrame);
    if (typeof message === 'number') return message;
    if (message !== null) this.write(message);
    return 0;
  }

  /** The heartbeat comment (live streams only: one still sending its backlog is not idle). */
  ping() {
    if (this.mode === 'live') this.write(PING_FRAME);
  }

  private write(text: string) {
    const raw = this.raw;
    if (raw.destroyed || raw.writableEnded) return;
    raw.write(text);
    if (this.mode === 'live' && raw.writableLength > this.ctx.settings.maxBufferedBytes) {
      this.ctx.log.info(
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
    this.ctx.index.leave(this, this.group);
    this.group = this.ctx.index.join(this, scope);
  }

  end(reason: EndReason) {
    if (this.mode === 'closed') return;
    const wasOpen = this.mode !== 'opening';
    this.mode = 'closed';
    this.endedBy = reason;
    clearTimeout(this.expiry);
    this.ctx.scheduler.forget(this);
    this.ctx.index.leave(this, this.group);
    this.ctx.ended(this, reason);
    this.outbox.clear();
    this.buffered = [];
    if (reason === 'slow') this.raw.destroy();
    else if (wasOpen && !this.raw.writableEnded) this.raw.end();
  }
}

/** Pings every stream `streams()` yields every `ms`; returns the function that stops it. */
export function startHeartbeat(streams: () => Iterable<{ ping(): void }>, ms: number): () => void {
  const timer = setInterval(() => {
    for (const s of streams()) s.ping();
  }, ms);
  timer.unref();
  return () => clearInterval(timer);
}
