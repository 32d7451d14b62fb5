import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import { negotiate } from '@fastify/accept-negotiator';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Location } from '../repositories/org-repository.ts';

/** A rendered answer shared by every caller of the same (endpoint, scope id, query) for a short while. */
export interface Snapshot {
  body: string;
  etag: string;
  contentType: string;
  /** Extra headers of the answer (e.g. the next-page cursor of a log). */
  headers: Record<string, string>;
  /** The body gzipped, made once on the first request that accepts gzip and shared by every caller. */
  gzipped?: Promise<Buffer | null>;
}

const gzipAsync = promisify(gzip);
/** Smaller bodies are sent as they are: gzip would save too little to pay for itself. */
export const GZIP_MIN_BYTES = 1024;

export interface SnapshotCacheOptions {
  /** How long a snapshot is served after it was built (ms); each entry adds up to 25 % jitter. */
  ttlMs?: number;
  /**
   * After its TTL a snapshot is still served for this long (ms) while one rebuild runs in the
   * background (stale-while-revalidate), so no poller waits behind a slow rebuild. Older than
   * that, callers wait for the rebuild. Invalidation always drops at once. @default 5 × ttlMs
   */
  staleMs?: number;
  /** Source of randomness for the jitter (tests pass a fixed one). */
  random?: () => number;
  /** At most this many snapshots are kept; the oldest go first. */
  maxEntries?: number;
}

interface Entry {
  promise: Promise<Snapshot>;
  /** When the snapshot was built; null while it is being built. */
  builtAt: number | null;
  /** This entry's TTL (the base TTL plus its jitter), so entries built together expire apart. */
  ttl: number;
  /** A background rebuild of this stale entry is under way. */
  refreshing?: boolean;
}

export interface SnapshotCache {
  /**
   * The snapshot under `key`: a fresh one is reused, one being built is awaited (in-flight callers share one
   * promise, so N concurrent pollers cost one query), otherwise `build` runs once.
   */
  get(key: string, build: () => Promise<Omit<Snapshot, 'etag'>>): Promise<Snapshot>;
  /**
   * Drops snapshots: a key prefix (e.g. 'site:5|'), or every scope of a place (its agent, company and site),
   * as the device services do after a write.
   */
  invalidate(target: string | Partial<Location>): number;
  clear(): void;
  readonly size: number;
  /** Counters for benchmarks and tests. */
  stats: { hits: number; builds: number; shared: number; stale: number };
}

export function etagOf(body: string): string {
  return `"${createHash('sha1').update(body).digest('base64url').slice(0, 22)}"`;
}

/** The scope part of a snapshot key (`site:5|` of `site:5|/api/...`), or null when the key has none. */
function scopeOf(key: string): string | null {
  const bar = key.indexOf('|');
  return bar > 0 ? key.slice(0, bar + 1) : null;
}

/** The scope prefixes of a place: its agent, company and site. */
export function scopesOf(loc: Partial<Location>): string[] {
  const out: string[] = [];
  if (loc.agentId != null) out.push(`agent:${loc.agentId}|`);
  if (loc.companyId != null) out.push(`company:${loc.companyId}|`);
  if (loc.siteId != null) out.push(`site:${loc.siteId}|`);
  return out;
}

export function createSnapshotCache(opts: SnapshotCacheOptions = {}): SnapshotCache {
  const ttlMs = opts.ttlMs ?? 2000;
  const staleMs = opts.staleMs ?? ttlMs * 5;
  const random = opts.random ?? Math.random;
  const maxEntries = opts.maxEntries ?? 10_000;
  const entries = new Map<string, Entry>();
  /** Keys by scope prefix, so dropping a place's snapshots (on every change of the feed) costs what it drops. */
  const byScope = new Map<string, Set<string>>();
  const stats = { hits: 0, builds: 0, shared: 0, stale: 0 };

  const put = (key: string, entry: Entry) => {
    entries.set(key, entry);
    const scope = scopeOf(key);
    if (scope === null) return;
    let keys = byScope.get(scope);
    if (!keys) {
      keys = new Set();
      byScope.set(scope, keys);
    }
    keys.add(key);
  };
  const drop = (key: string): boolean => {
    if (!entries.delete(key)) return false;
    const scope = scopeOf(key);
    const keys = scope === null ? undefined : byScope.get(scope);
    if (keys) {
      keys.delete(key);
      if (keys.size === 0) byScope.delete(scope!);
    }
    return true;
  };

  /** Builds a snapshot; `register` puts it under `key` at once (a stale entry is replaced when done). */
  const start = (key: string, build: () => Promise<Omit<Snapshot, 'etag'>>, register: boolean): Entry => {
    stats.builds++;
    const entry: Entry = {
      builtAt: null,
      ttl: ttlMs * (1 + 0.25 * random()),
      promise: build().then((s) => ({ ...s, etag: etagOf(s.body) })),
    };
    if (register) put(key, entry);
    entry.promise.then(
      () => {
        entry.builtAt = Date.now();
      },
      () => {
        if (entries.get(key) === entry) drop(key);
      },
    );
    if (entries.size > maxEntries) {
      for (const k of entries.keys()) {
        drop(k);
        if (entries.size <= maxEntries * 0.9) break;
      }
    }
    return entry;
  };

  return {
    stats,
    get size() {
      return entries.size;
    },
    get(key, build) {
      const now = Date.now();
      const hit = entries.get(key);
      if (hit) {
        if (hit.builtAt === null) {
          stats.shared++;
          return hit.promise;
        }
        const age = now - hit.builtAt;
        if (age < hit.ttl) {
          stats.hits++;
          return hit.promise;
        }
        if (age < hit.ttl + staleMs) {
          // Serve the previous answer; one caller starts the rebuild, which replaces it when done.
          stats.stale++;
          if (!hit.refreshing) {
            hit.refreshing = true;
            const next = start(key, build, false);
            next.promise.then(
              () => {
                // Not when the entry was invalidated meanwhile: the rebuild may have read before the write.
                if (entries.get(key) === hit) put(key, next);
              },
              () => {
                hit.refreshing = false;
              },
            );
          }
          return hit.promise;
        }
        drop(key);
      }
      return start(key, build, true).promise;
    },
    invalidate(target) {
      const prefixes = typeof target === 'string' ? [target] : scopesOf(target);
      let dropped = 0;
      for (const prefix of prefixes) {
        if (scopeOf(prefix) === prefix) {
          for (const key of [...(byScope.get(prefix) ?? [])]) if (drop(key)) dropped++;
        } else {
          // Any other prefix: look at every key.
          for (const key of [...entries.keys()]) if (key.startsWith(prefix) && drop(key)) dropped++;
        }
      }
      return dropped;
    },
    clear() {
      entries.clear();
      byScope.clear();
    },
  };
}

/** Canonical text of a parsed query: keys sorted, so equal queries share one snapshot. */
export function queryKey(query: unknown): string {
  if (!query || typeof query !== 'object') return '';
  const obj = query as Record<string, unknown>;
  return Object.keys(obj)
    .filter((k) => obj[k] !== undefined)
    .sort()
    .map((k) => `${k}=${JSON.stringify(obj[k])}`)
    .join('&');
}

/** True when an `If-None-Match` header names this ETag (or `*`). */
export function etagMatches(header: string | string[] | undefined, etag: string): boolean {
  if (!header) return false;
  const text = Array.isArray(header) ? header.join(',') : header;
  return text.split(',').some((raw) => {
    const tag = raw.trim();
    return tag === '*' || tag === etag || tag === `W/${etag}`;
  });
}

/** True when the request's Accept-Encoding takes gzip (`gzip;q=0` refuses it). */
export function acceptsGzip(header: string | string[] | undefined): boolean {
  if (!header) return false;
  const text = Array.isArray(header) ? header.join(',') : header;
  return negotiate(text, ['gzip']) === 'gzip';
}

/**
 * Sends a snapshot: 304 when the caller already holds it, else the body, with its ETag either way. A body
 * of 1 KB or more goes gzipped to a client that accepts it; the gzip is made once per snapshot (in the
 * thread pool, off the event loop) and shared by every caller, so the ETag names the same entity in
 * both encodings.
 */
export async function sendSnapshot(request: FastifyRequest, reply: FastifyReply, snap: Snapshot) {
  reply.header('etag', snap.etag);
  reply.header('cache-control', 'private, no-cache');
  reply.header('vary', 'accept-encoding');
  for (const [k, v] of Object.entries(snap.headers)) reply.header(k, v);
  if (etagMatches(request.headers['if-none-match'], snap.etag)) {
    return reply.code(304).send();
  }
  reply.type(snap.contentType);
  if (snap.body.length >= GZIP_MIN_BYTES && acceptsGzip(request.headers['accept-encoding'])) {
    snap.gzipped ??= gzipAsync(snap.body).catch(() => null);
    const gzipped = await snap.gzipped;
    if (gzipped) return reply.header('content-encoding', 'gzip').send(gzipped);
  }
  return reply.send(snap.body);
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Shared snapshots of polled reads: one build per (endpoint, scope id, query) per interval. */
    snapshots: SnapshotCache;
  }
}

export const snapshotCachePlugin = fp(
  async (app: FastifyInstance, opts: SnapshotCacheOptions) => {
    if (app.hasDecorator('snapshots')) return;
    app.decorate('snapshots', createSnapshotCache(opts));
  },
  { name: 'snapshot-cache' },
);
